package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestSqueezeCopy(t *testing.T) {
	f32 := executor.Float32
	x := shapeIota(t, 1, 2, 1, 3)
	shapeRun(t, "aten::squeeze_copy.dim_out", []shapeCase{
		{"size-1 dim", []any{x, 0, empty(t, f32, 2, 1, 3)}, []int{2, 1, 3}, shapeSeq(0, 6)},
		{"negative", []any{x, -2, empty(t, f32, 1, 2, 3)}, []int{1, 2, 3}, shapeSeq(0, 6)},
		{"not size 1: unchanged", []any{x, 1, empty(t, f32, 1, 2, 1, 3)}, []int{1, 2, 1, 3}, shapeSeq(0, 6)},
		{"0-d", []any{tensor(t, []int32{9}), -1, empty(t, executor.Int32)}, []int{}, []float64{9}},
	})
	shapeRun(t, "aten::squeeze_copy.dims_out", []shapeCase{
		{"both", []any{x, []int64{0, 2}, empty(t, f32, 2, 3)}, []int{2, 3}, shapeSeq(0, 6)},
		{"mixed", []any{x, []int64{-1, -2, 1}, empty(t, f32, 1, 2, 3)}, []int{1, 2, 3}, shapeSeq(0, 6)},
		{"none listed", []any{x, []int64{}, empty(t, f32, 1, 2, 1, 3)}, []int{1, 2, 1, 3}, shapeSeq(0, 6)},
		{"empty tensor", []any{shapeIota(t, 1, 0), []int64{0}, empty(t, f32, 0)}, []int{0}, nil},
		{"channels-last input", []any{shapeOrdered(t, []float32{0, 1, 2, 3, 4, 5}, []int{1, 3, 2, 1}, channelsLast), []int64{0, 3}, empty(t, f32, 3, 2)},
			[]int{3, 2}, shapeSeq(0, 6)},
	})
	shapeRun(t, "aten::squeeze_copy.out", []shapeCase{
		{"all", []any{x, empty(t, f32, 2, 3)}, []int{2, 3}, shapeSeq(0, 6)},
		{"all ones", []any{tensor(t, []uint8{5}, 1, 1), empty(t, executor.Uint8)}, []int{}, []float64{5}},
	})
}

func TestSqueezeCopyErrors(t *testing.T) {
	x := shapeIota(t, 1, 2)
	out := empty(t, executor.Float32, 2)
	wantErr(t, call(t, "aten::squeeze_copy.dim_out", x, 2, out, out), "out of range")
	wantErr(t, call(t, "aten::squeeze_copy.dims_out", x, []int64{0, -2}, out, out), "more than once")
	wantErr(t, call(t, "aten::squeeze_copy.dims_out", x, []int64{5}, out, out), "out of range")
	wantErr(t, call(t, "aten::squeeze_copy.dim_out", x, 1, out, out), "cannot resize a rank-1 tensor")
	wantErr(t, call(t, "aten::squeeze_copy.dim_out", x, 0, empty(t, executor.Int32, 2), none), "keeps the dtype")
}
