package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from Tensor.unfold (torch 2.15) on arange(24).reshape(2, 3, 4).
func TestUnfoldCopy(t *testing.T) {
	x := func() *executor.Tensor { return shapeIota(t, 2, 3, 4) }
	shapeRun(t, "aten::unfold_copy.out", []shapeCase{
		{"overlapping windows", []any{x(), 2, 2, 1, empty(t, executor.Float32, 2, 3, 3, 2)}, []int{2, 3, 3, 2},
			[]float64{0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7, 8, 9, 9, 10, 10, 11, 12, 13, 13, 14, 14, 15, 16, 17, 17, 18, 18, 19, 20, 21, 21, 22, 22, 23}},
		{"step past the end drops the tail", []any{x(), 1, 2, 2, empty(t, executor.Float32, 2, 1, 4, 2)}, []int{2, 1, 4, 2},
			[]float64{0, 4, 1, 5, 2, 6, 3, 7, 12, 16, 13, 17, 14, 18, 15, 19}},
		{"0-d", []any{tensor(t, []float32{5}), 0, 1, 1, empty(t, executor.Float32, 1)}, []int{1}, []float64{5}},
	})
	wantErr(t, call(t, "aten::unfold_copy.out", x(), 2, 5, 1, empty(t, executor.Float32, 2, 3, 0, 5), none), "exceeds dimension 2 of size 4")
	wantErr(t, call(t, "aten::unfold_copy.out", x(), 2, 2, 0, empty(t, executor.Float32, 2, 3, 3, 2), none), "step must be positive")
}
