package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.tril (torch 2.15) on arange inputs.
func TestTril(t *testing.T) {
	shapeRun(t, "aten::tril.out", []shapeCase{
		{"main diagonal", []any{shapeIota(t, 3, 4), 0, empty(t, executor.Float32, 3, 4)}, []int{3, 4}, []float64{0, 0, 0, 0, 4, 5, 0, 0, 8, 9, 10, 0}},
		{"above", []any{shapeIota(t, 3, 4), 1, empty(t, executor.Float32, 3, 4)}, []int{3, 4}, []float64{0, 1, 0, 0, 4, 5, 6, 0, 8, 9, 10, 11}},
		{"below", []any{shapeIota(t, 3, 4), -1, empty(t, executor.Float32, 3, 4)}, []int{3, 4}, []float64{0, 0, 0, 0, 4, 0, 0, 0, 8, 9, 0, 0}},
		{"batched", []any{shapeIota(t, 2, 2, 2), -1, empty(t, executor.Float32, 2, 2, 2)}, []int{2, 2, 2}, []float64{0, 0, 2, 0, 0, 0, 6, 0}},
		{"huge diagonal keeps all", []any{shapeIota(t, 2, 2), int64(1) << 62, empty(t, executor.Float32, 2, 2)}, []int{2, 2}, []float64{0, 1, 2, 3}},
		{"very negative diagonal clears all", []any{shapeIota(t, 2, 2), -(int64(1) << 62), empty(t, executor.Float32, 2, 2)}, []int{2, 2}, []float64{0, 0, 0, 0}},
		{"bool", []any{tensor(t, []bool{true, true, true, true}, 2, 2), 0, empty(t, executor.Bool, 2, 2)}, []int{2, 2}, []float64{1, 0, 1, 1}},
		{"channels-last", []any{shapeOrdered(t, shapeIotaF32(8), []int{1, 2, 2, 2}, channelsLast), 0, shapeOrderedEmpty(t, executor.Float32, []int{1, 2, 2, 2}, channelsLast)},
			[]int{1, 2, 2, 2}, []float64{0, 0, 2, 3, 4, 0, 6, 7}},
	})
	wantErr(t, call(t, "aten::tril.out", shapeIota(t, 3), 0, empty(t, executor.Float32, 3), none), "at least 2 dimensions")
}
