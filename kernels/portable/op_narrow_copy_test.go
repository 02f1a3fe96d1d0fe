package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.narrow_copy (torch 2.15).
func TestNarrowCopy(t *testing.T) {
	shapeRun(t, "aten::narrow_copy.out", []shapeCase{
		{"negative start", []any{shapeIota(t, 2, 3, 4), 1, -2, 2, empty(t, executor.Float32, 2, 2, 4)}, []int{2, 2, 4},
			[]float64{4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23}},
		{"zero length", []any{shapeIota(t, 2, 3, 4), 2, 1, 0, empty(t, executor.Float32, 2, 3, 0)}, []int{2, 3, 0}, nil},
		{"channels-last self", []any{shapeOrdered(t, shapeIotaF32(8), []int{1, 2, 2, 2}, channelsLast), -1, 1, 1, empty(t, executor.Float32, 1, 2, 2, 1)}, []int{1, 2, 2, 1}, []float64{1, 3, 5, 7}},
	})
	x := shapeIota(t, 2, 3)
	wantErr(t, call(t, "aten::narrow_copy.out", x, 1, 2, 2, empty(t, executor.Float32, 2, 2), none), "exceeds dimension 1 of size 3")
	wantErr(t, call(t, "aten::narrow_copy.out", x, 1, -4, 1, empty(t, executor.Float32, 2, 1), none), "out of range")
	wantErr(t, call(t, "aten::narrow_copy.out", x, 2, 0, 1, empty(t, executor.Float32, 2, 1), none), "dimension 2 out of range")
	wantErr(t, call(t, "aten::narrow_copy.out", tensor(t, []float32{1}), 0, 0, 1, empty(t, executor.Float32), none), "0-d")
}
