package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestRepeat(t *testing.T) {
	x := tensor(t, []int64{1, 2, 3, 4}, 2, 2)
	shapeRun(t, "aten::repeat.out", []shapeCase{
		{"new dim and tiles", []any{x, []int64{2, 1, 2}, empty(t, executor.Int64, 2, 2, 4)}, []int{2, 2, 4},
			[]float64{1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4}},
		{"ones", []any{x, []int64{1, 1}, empty(t, executor.Int64, 2, 2)}, []int{2, 2}, []float64{1, 2, 3, 4}},
		{"1-d", []any{tensor(t, []float32{1, 2, 3}, 3), []int64{2}, empty(t, executor.Float32, 6)}, []int{6}, []float64{1, 2, 3, 1, 2, 3}},
		{"rows", []any{x, []int64{3, 1}, empty(t, executor.Int64, 6, 2)}, []int{6, 2}, []float64{1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4}},
		{"0-d", []any{tensor(t, []bool{true}), []int64{3}, empty(t, executor.Bool, 3)}, []int{3}, []float64{1, 1, 1}},
		{"zero repeats", []any{x, []int64{0, 2}, empty(t, executor.Int64, 0, 4)}, []int{0, 4}, nil},
		{"channels-last out", []any{tensor(t, []float32{1, 2}, 1, 2, 1, 1), []int64{1, 1, 2, 1}, shapeOrderedEmpty(t, executor.Float32, []int{1, 2, 2, 1}, channelsLast)},
			[]int{1, 2, 2, 1}, []float64{1, 1, 2, 2}},
	})
	out := empty(t, executor.Int64, 2, 2)
	wantErr(t, call(t, "aten::repeat.out", x, []int64{2}, out, out), "at least as many")
	wantErr(t, call(t, "aten::repeat.out", x, []int64{-1, 1}, out, out), "negative")
	wantErr(t, call(t, "aten::repeat.out", x, []int64{2, 1}, out, out), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::repeat.out", x, []int64{1, 1}, empty(t, executor.Int32, 2, 2), none), "keeps the dtype")
}
