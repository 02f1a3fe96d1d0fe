package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestIndexSelect(t *testing.T) {
	f32 := executor.Float32
	a := shapeIota(t, 2, 3, 4)
	shapeRun(t, "aten::index_select.out", []shapeCase{
		{"middle dim, repeats", []any{a, 1, tensor(t, []int64{2, 0, 2}, 3), empty(t, f32, 2, 3, 4)}, []int{2, 3, 4},
			[]float64{8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11, 20, 21, 22, 23, 12, 13, 14, 15, 20, 21, 22, 23}},
		{"last dim by -1, int32", []any{a, -1, tensor(t, []int32{3}, 1), empty(t, f32, 2, 3, 1)}, []int{2, 3, 1}, []float64{3, 7, 11, 15, 19, 23}},
		{"0-d index", []any{a, 0, tensor(t, []int64{1}), empty(t, f32, 1, 3, 4)}, []int{1, 3, 4}, shapeSeq(12, 24)},
		{"0-d self", []any{tensor(t, []int16{9}), 0, tensor(t, []int64{0}, 1), empty(t, executor.Int16)}, []int{}, []float64{9}},
		{"no indices", []any{a, 2, tensor(t, []int64{}, 0), empty(t, f32, 2, 3, 0)}, []int{2, 3, 0}, nil},
		{"bool", []any{tensor(t, []bool{true, false}, 2), 0, tensor(t, []int64{1, 0, 1}, 3), empty(t, executor.Bool, 3)}, []int{3}, []float64{0, 1, 0}},
		{"channels-last", []any{shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), 1, tensor(t, []int64{1}, 1), empty(t, f32, 1, 1, 2, 2)},
			[]int{1, 1, 2, 2}, []float64{4, 5, 6, 7}},
	})
}

func TestIndexSelectErrors(t *testing.T) {
	a := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 2, 1)
	wantErr(t, call(t, "aten::index_select.out", a, 1, tensor(t, []int64{3}, 1), out, out), "out of range")
	wantErr(t, call(t, "aten::index_select.out", a, 1, tensor(t, []int64{-1}, 1), out, out), "out of range")
	wantErr(t, call(t, "aten::index_select.out", a, 2, tensor(t, []int64{0}, 1), out, out), "out of range")
	wantErr(t, call(t, "aten::index_select.out", a, 1, tensor(t, []int64{0}, 1, 1), out, out), "0-d or 1-d")
	wantErr(t, call(t, "aten::index_select.out", a, 1, tensor(t, []int8{0}, 1), out, out), "int64 or int32")
	wantErr(t, call(t, "aten::index_select.out", a, 1, tensor(t, []int64{0, 1}, 2), out, out), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::index_select.out", tensor(t, []float32{1}), 0, tensor(t, []int64{0, 0}, 2), empty(t, executor.Float32), none), "exactly one index")
}
