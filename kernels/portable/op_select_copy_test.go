package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestSelectCopy(t *testing.T) {
	f32 := executor.Float32
	x := shapeIota(t, 2, 3, 4)
	shapeRun(t, "aten::select_copy.int_out", []shapeCase{
		{"dim 0", []any{x, 0, 1, empty(t, f32, 3, 4)}, []int{3, 4}, shapeSeq(12, 24)},
		{"negative dim and index", []any{x, -1, -1, empty(t, f32, 2, 3)}, []int{2, 3}, []float64{3, 7, 11, 15, 19, 23}},
		{"middle", []any{x, 1, 2, empty(t, f32, 2, 4)}, []int{2, 4}, []float64{8, 9, 10, 11, 20, 21, 22, 23}},
		{"1-d to 0-d", []any{tensor(t, []int16{4, 5, 6}, 3), 0, 2, empty(t, executor.Int16)}, []int{}, []float64{6}},
		{"empty rows", []any{shapeIota(t, 2, 0), 0, 1, empty(t, f32, 0)}, []int{0}, nil},
		{"channels-last input", []any{shapeOrdered(t, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, []int{1, 3, 2, 2}, channelsLast), 3, 1,
			empty(t, f32, 1, 3, 2)}, []int{1, 3, 2}, []float64{1, 3, 5, 7, 9, 11}},
	})
}

func TestSelectCopyErrors(t *testing.T) {
	x := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 3)
	wantErr(t, call(t, "aten::select_copy.int_out", x, 0, 2, out, out), "out of bounds")
	wantErr(t, call(t, "aten::select_copy.int_out", x, 0, -3, out, out), "out of bounds")
	wantErr(t, call(t, "aten::select_copy.int_out", x, 2, 0, out, out), "out of range")
	wantErr(t, call(t, "aten::select_copy.int_out", tensor(t, []float32{1}), 0, 0, empty(t, executor.Float32), none), "0-d")
	wantErr(t, call(t, "aten::select_copy.int_out", x, 1, 0, out, out), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::select_copy.int_out", x, 0, 0, empty(t, executor.Float64, 3), none), "keeps the dtype")
}
