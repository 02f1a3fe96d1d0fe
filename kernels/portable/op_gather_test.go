package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestGather(t *testing.T) {
	f32 := executor.Float32
	a := shapeIota(t, 2, 3, 4)
	shapeRun(t, "aten::gather.out", []shapeCase{
		{"2-d dim 1", []any{tensor(t, []int64{1, 2, 3, 4}, 2, 2), 1, tensor(t, []int64{0, 0, 1, 0}, 2, 2), false, empty(t, executor.Int64, 2, 2)}, []int{2, 2}, []float64{1, 1, 4, 3}},
		{"last dim, smaller index", []any{a, -1, tensor(t, []int64{3, 0, 1}, 1, 3, 1), false, empty(t, f32, 1, 3, 1)}, []int{1, 3, 1}, []float64{3, 4, 9}},
		{"dim 0", []any{a, 0, tensor(t, []int64{1, 0}, 1, 1, 2), false, empty(t, f32, 1, 1, 2)}, []int{1, 1, 2}, []float64{12, 1}},
		{"int32 index", []any{tensor(t, []float64{10, 20, 30}, 3), 0, tensor(t, []int32{2, 2, 0, 1}, 4), false, empty(t, executor.Float64, 4)}, []int{4}, []float64{30, 30, 10, 20}},
		{"0-d", []any{tensor(t, []float32{5}), 0, tensor(t, []int64{0}), false, empty(t, f32)}, []int{}, []float64{5}},
		{"empty index", []any{a, 1, tensor(t, []int64{}, 2, 0, 4), false, empty(t, f32, 2, 0, 4)}, []int{2, 0, 4}, nil},
		{"channels-last self", []any{shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), 1, tensor(t, []int64{2, 0, 1, 2}, 1, 1, 2, 2), false,
			empty(t, f32, 1, 1, 2, 2)}, []int{1, 1, 2, 2}, []float64{8, 1, 6, 11}},
	})
}

func TestGatherErrors(t *testing.T) {
	a := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 2, 3)
	idx := tensor(t, []int64{0, 1, 2, 0, 1, 2}, 2, 3)
	wantErr(t, call(t, "aten::gather.out", a, 1, tensor(t, []int64{0, 3, 0, 0, 0, 0}, 2, 3), false, out, out), "out of bounds")
	wantErr(t, call(t, "aten::gather.out", a, 1, tensor(t, []int64{-1, 0, 0, 0, 0, 0}, 2, 3), false, out, out), "out of bounds")
	wantErr(t, call(t, "aten::gather.out", a, 2, idx, false, out, out), "out of range")
	wantErr(t, call(t, "aten::gather.out", a, 1, tensor(t, []int64{0, 0, 0}, 3), false, empty(t, executor.Float32, 3), none), "has 1 dimensions")
	wantErr(t, call(t, "aten::gather.out", a, 1, tensor(t, []int64{0, 0, 0}, 3, 1), false, empty(t, executor.Float32, 3, 1), none), "exceeds self's 2")
	wantErr(t, call(t, "aten::gather.out", a, 1, tensor(t, []float32{0, 0, 0, 0, 0, 0}, 2, 3), false, out, out), "int64 or int32")
	wantErr(t, call(t, "aten::gather.out", a, 1, idx, false, empty(t, executor.Float32, 3, 2), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::gather.out", a, 1, idx, false, empty(t, executor.Int32, 2, 3), none), "keeps the dtype")
}
