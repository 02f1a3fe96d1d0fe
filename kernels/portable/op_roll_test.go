package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.roll (torch 2.15) on arange(12).reshape(3, 4).
func TestRoll(t *testing.T) {
	x := func() *executor.Tensor { return shapeIota(t, 3, 4) }
	shapeRun(t, "aten::roll.out", []shapeCase{
		{"flattened", []any{x(), []int64{5}, []int64{}, empty(t, executor.Float32, 3, 4)}, []int{3, 4}, []float64{7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6}},
		{"one dim", []any{x(), []int64{1}, []int64{1}, empty(t, executor.Float32, 3, 4)}, []int{3, 4}, []float64{3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10}},
		{"two dims, negative shift", []any{x(), []int64{-1, 2}, []int64{0, 1}, empty(t, executor.Float32, 3, 4)}, []int{3, 4}, []float64{6, 7, 4, 5, 10, 11, 8, 9, 2, 3, 0, 1}},
		{"shift of a whole turn", []any{x(), []int64{8}, []int64{-1}, empty(t, executor.Float32, 3, 4)}, []int{3, 4}, shapeSeq(0, 12)},
		{"channels-last out", []any{x(), []int64{1}, []int64{1}, shapeOrderedEmpty(t, executor.Float32, []int{3, 4}, []uint8{1, 0})}, []int{3, 4}, []float64{3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10}},
		{"empty", []any{shapeIota(t, 0, 3), []int64{1}, []int64{1}, empty(t, executor.Float32, 0, 3)}, []int{0, 3}, nil},
	})
	wantErr(t, call(t, "aten::roll.out", x(), []int64{1, 2}, []int64{}, empty(t, executor.Float32, 3, 4), none), "2 shifts need as many dims")
	wantErr(t, call(t, "aten::roll.out", x(), []int64{1}, []int64{0, 1}, empty(t, executor.Float32, 3, 4), none), "2 dims for 1 shifts")
	wantErr(t, call(t, "aten::roll.out", x(), []int64{1}, []int64{2}, empty(t, executor.Float32, 3, 4), none), "out of range")
}
