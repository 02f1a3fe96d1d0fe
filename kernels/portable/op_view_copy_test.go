package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestViewCopy(t *testing.T) {
	f32 := executor.Float32
	shapeRun(t, "aten::view_copy.out", []shapeCase{
		{"reshape", []any{shapeIota(t, 2, 3, 4), []int64{4, 6}, empty(t, f32, 4, 6)}, []int{4, 6}, shapeSeq(0, 24)},
		{"inferred", []any{shapeIota(t, 2, 3, 4), []int64{4, -1}, empty(t, f32, 4, 6)}, []int{4, 6}, shapeSeq(0, 24)},
		{"inferred first", []any{shapeIota(t, 2, 3, 4), []int64{-1, 2, 2}, empty(t, f32, 6, 2, 2)}, []int{6, 2, 2}, shapeSeq(0, 24)},
		{"flatten to 1-d", []any{shapeIota(t, 2, 3), []int64{-1}, empty(t, f32, 6)}, []int{6}, shapeSeq(0, 6)},
		{"to 0-d", []any{tensor(t, []float32{5}, 1, 1), []int64{}, empty(t, f32)}, []int{}, []float64{5}},
		{"empty", []any{shapeIota(t, 0, 4), []int64{2, 0, 2}, empty(t, f32, 2, 0, 2)}, []int{2, 0, 2}, nil},
		{"bool", []any{tensor(t, []bool{true, false, false, true}, 4), []int64{2, 2}, empty(t, executor.Bool, 2, 2)}, []int{2, 2}, []float64{1, 0, 0, 1}},
		{"dynamic out", []any{shapeIota(t, 2, 3), []int64{3, -1}, dynamic(t, f32, 4, 4)}, []int{3, 2}, shapeSeq(0, 6)},
		// The view follows logical order whatever the dim orders.
		{"channels-last input", []any{shapeOrdered(t, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, []int{1, 3, 2, 2}, channelsLast), []int64{3, 4}, empty(t, f32, 3, 4)},
			[]int{3, 4}, shapeSeq(0, 12)},
		{"channels-last out", []any{shapeIota(t, 12), []int64{1, 3, 2, 2}, shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)},
			[]int{1, 3, 2, 2}, shapeSeq(0, 12)},
	})
}

func TestViewCopyErrors(t *testing.T) {
	x := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 3, 2)
	wantErr(t, call(t, "aten::view_copy.out", x, []int64{-1, -1}, out, out), "only one dimension can be inferred")
	wantErr(t, call(t, "aten::view_copy.out", x, []int64{4, -1}, out, out), "invalid for 6 elements")
	wantErr(t, call(t, "aten::view_copy.out", x, []int64{3, 3}, out, out), "invalid for 6 elements")
	wantErr(t, call(t, "aten::view_copy.out", x, []int64{3, -2}, out, out), "invalid size -2")
	wantErr(t, call(t, "aten::view_copy.out", shapeIota(t, 0), []int64{0, -1}, empty(t, executor.Float32, 0, 0), none), "cannot infer")
	wantErr(t, call(t, "aten::view_copy.out", x, []int64{6}, out, out), "cannot resize a rank-2 tensor")
	wantErr(t, call(t, "aten::view_copy.out", x, []int64{3, 2}, empty(t, executor.Int32, 3, 2), none), "keeps the dtype")
	wantErr(t, call(t, "aten::view_copy.out", x, []float64{3, 2}, out, out), "argument 1 (size): want IntList")
}
