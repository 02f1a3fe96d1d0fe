package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.nn.functional.glu (torch 2.15) on arange(12)/4 - 1.
func TestGlu(t *testing.T) {
	in := func(sizes ...int) *executor.Tensor {
		v := make([]float32, 12)
		for i := range v {
			v[i] = float32(i)/4 - 1
		}
		return tensor(t, v, sizes...)
	}
	want := []float64{-0.43782350420951843, -0.375, -0.281088262796402, 0.38864994049072266, 0.6131808161735535, 0.8519527316093445}
	shapeRun(t, "aten::glu.out", []shapeCase{
		{"last dim", []any{in(2, 6), -1, empty(t, executor.Float32, 2, 3)}, []int{2, 3}, want},
		{"middle dim", []any{in(2, 2, 3), 1, empty(t, executor.Float32, 2, 1, 3)}, []int{2, 1, 3}, want},
	})
	wantErr(t, call(t, "aten::glu.out", in(3, 4), 0, empty(t, executor.Float32, 1, 4), none), "must be even")
	wantErr(t, call(t, "aten::glu.out", tensor(t, []int32{1, 2}, 2), 0, empty(t, executor.Float32, 1), none), "floating")
}
