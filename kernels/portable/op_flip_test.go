package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestFlip(t *testing.T) {
	f32 := executor.Float32
	a := shapeIota(t, 2, 3, 4)
	shapeRun(t, "aten::flip.out", []shapeCase{
		{"dims 0 and 2", []any{a, []int64{0, 2}, empty(t, f32, 2, 3, 4)}, []int{2, 3, 4},
			[]float64{15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}},
		{"negative", []any{a, []int64{-2}, empty(t, f32, 2, 3, 4)}, []int{2, 3, 4},
			[]float64{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 20, 21, 22, 23, 16, 17, 18, 19, 12, 13, 14, 15}},
		{"no dims", []any{a, []int64{}, empty(t, f32, 2, 3, 4)}, []int{2, 3, 4}, shapeSeq(0, 24)},
		{"uint8", []any{tensor(t, []uint8{1, 2, 3}, 3), []int64{0}, empty(t, executor.Uint8, 3)}, []int{3}, []float64{3, 2, 1}},
		{"0-d", []any{tensor(t, []float32{4}), []int64{0}, empty(t, f32)}, []int{}, []float64{4}},
		{"empty", []any{shapeIota(t, 0, 2), []int64{0, 1}, empty(t, f32, 0, 2)}, []int{0, 2}, nil},
		{"channels-last", []any{shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), []int64{1}, empty(t, f32, 1, 3, 2, 2)},
			[]int{1, 3, 2, 2}, []float64{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3}},
	})
	out := empty(t, f32, 2, 3, 4)
	wantErr(t, call(t, "aten::flip.out", a, []int64{0, -3}, out, out), "more than once")
	wantErr(t, call(t, "aten::flip.out", a, []int64{3}, out, out), "out of range")
	wantErr(t, call(t, "aten::flip.out", a, []int64{0}, empty(t, f32, 2, 3), none), "cannot resize a rank-2 tensor")
	wantErr(t, call(t, "aten::flip.out", a, []int64{0}, empty(t, executor.Float64, 2, 3, 4), none), "keeps the dtype")
}
