package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.diagonal_copy (torch 2.15) on arange(24).reshape(2, 3, 4).
func TestDiagonalCopy(t *testing.T) {
	x := func() *executor.Tensor { return shapeIota(t, 2, 3, 4) }
	shapeRun(t, "aten::diagonal_copy.out", []shapeCase{
		{"main", []any{x(), 0, 1, 2, empty(t, executor.Float32, 2, 3)}, []int{2, 3}, []float64{0, 5, 10, 12, 17, 22}},
		{"above", []any{x(), 1, 1, 2, empty(t, executor.Float32, 2, 3)}, []int{2, 3}, []float64{1, 6, 11, 13, 18, 23}},
		{"below, dims reversed", []any{x(), -1, 2, 0, empty(t, executor.Float32, 3, 2)}, []int{3, 2}, []float64{1, 14, 5, 18, 9, 22}},
		{"offset past the edge", []any{x(), 9, 1, 2, empty(t, executor.Float32, 2, 0)}, []int{2, 0}, nil},
		{"int64", []any{tensor(t, []int64{1, 2, 3, 4}, 2, 2), 0, 0, 1, empty(t, executor.Int64, 2)}, []int{2}, []float64{1, 4}},
	})
	wantErr(t, call(t, "aten::diagonal_copy.out", x(), 0, 1, -2, empty(t, executor.Float32, 2, 3), none), "cannot be identical")
	wantErr(t, call(t, "aten::diagonal_copy.out", shapeIota(t, 3), 0, 0, 1, empty(t, executor.Float32, 3), none), "at least 2 dimensions")
	wantErr(t, call(t, "aten::diagonal_copy.out", x(), 0, 0, 3, empty(t, executor.Float32, 4, 2), none), "out of range")
}
