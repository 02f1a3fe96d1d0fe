package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.scatter_add (torch 2.15), except for the 0-d self (see below).
func TestScatterAdd(t *testing.T) {
	f32 := executor.Float32
	ones := make([]float32, 12)
	for i := range ones {
		ones[i] = 1
	}
	src := make([]float32, 12)
	for i := range src {
		src[i] = float32(i + 1)
	}
	plus100 := make([]float32, 12)
	for i := range plus100 {
		plus100[i] = float32(i + 100)
	}
	shapeRun(t, "aten::scatter_add.out", []shapeCase{
		{"dim 0 with repeats", []any{tensor(t, ones, 3, 4), 0, tensor(t, []int64{2, 0, 1, 2, 2, 2, 0, 0}, 2, 4), tensor(t, src, 3, 4), empty(t, f32, 3, 4)},
			[]int{3, 4}, []float64{1, 3, 8, 9, 1, 1, 4, 1, 7, 7, 1, 5}},
		{"int8 wraps", []any{empty(t, executor.Int8, 2, 3), -1, tensor(t, []int64{0, 0, 0, 2, 2, 1}, 2, 3), tensor(t, []int8{100, 100, 1, 5, 6, 7}, 2, 3),
			empty(t, executor.Int8, 2, 3)}, []int{2, 3}, []float64{-55, 0, 0, 0, 7, 11}},
		// 2048 + 1 rounds back to 2048 in float16 at each step.
		{"float16 rounds each addition", []any{empty(t, executor.Float16, 3), 0, tensor(t, []int64{0, 0, 1, 1}, 4),
			arithTyped(t, executor.Float16, []float64{2048, 1, 0.5, 0.25}, 4), empty(t, executor.Float16, 3)}, []int{3}, []float64{2048, 0.75, 0}},
		{"bool is or", []any{tensor(t, []bool{false, false, true}, 3), 0, tensor(t, []int64{0, 0, 2}, 3), tensor(t, []bool{true, true, true}, 3),
			empty(t, executor.Bool, 3)}, []int{3}, []float64{1, 0, 1}},
		{"int64 wraps", []any{empty(t, executor.Int64, 2), 0, tensor(t, []int64{1, 1}, 2), tensor(t, []int64{1 << 62, 1 << 62}, 2), empty(t, executor.Int64, 2)},
			[]int{2}, []float64{0, -(1 << 63)}},
		{"channels-last", []any{shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), 1, tensor(t, []int64{2, 0, 1, 2}, 1, 1, 2, 2),
			shapeOrdered(t, plus100, []int{1, 3, 2, 2}, channelsLast), shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)}, []int{1, 3, 2, 2},
			[]float64{0, 102, 2, 3, 4, 5, 108, 7, 108, 9, 10, 114}},
		{"empty index copies self", []any{shapeIota(t, 2, 2), 0, tensor(t, []int64{}, 0), tensor(t, []float32{1}, 1), empty(t, f32, 2, 2)}, []int{2, 2}, shapeSeq(0, 4)},
		// The official kernel adds index.size(0) × src[0] to a 0-d self: 10 + 3×1. torch gives
		// 10 + 1 + 2 + 3 = 16.
		{"0-d self, official semantics", []any{tensor(t, []float32{10}), 0, tensor(t, []int64{0, 0, 0}, 3), tensor(t, []float32{1, 2, 3}, 3), empty(t, f32)},
			[]int{}, []float64{13}},
		{"0-d self int32", []any{tensor(t, []int32{10}), 0, tensor(t, []int64{0, 0}, 2), tensor(t, []int32{4, 9}, 2), empty(t, executor.Int32)},
			[]int{}, []float64{18}},
		{"0-d self, index and src", []any{tensor(t, []float32{10}), 0, tensor(t, []int64{0}), tensor(t, []float32{2.5}), empty(t, f32)}, []int{}, []float64{12.5}},
	})
}

func TestScatterAddErrors(t *testing.T) {
	self := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 2, 3)
	idx := tensor(t, []int64{0, 1, 2, 0, 1, 2}, 2, 3)
	op := "aten::scatter_add.out"
	wantErr(t, call(t, op, self, 0, idx, self, out, out), "index 2 is out of bounds for dimension 0 with size 2")
	wantErr(t, call(t, op, self, -3, idx, self, out, out), "dimension -3 out of range")
	wantErr(t, call(t, op, self, 1, tensor(t, []int32{0, 1, 2, 0, 1, 2}, 2, 3), self, out, out), "must be int64")
	wantErr(t, call(t, op, self, 0, tensor(t, []int64{0, 0, 0, 0}, 1, 4), shapeIota(t, 2, 4), out, out), "size 4 at dimension 1 exceeds self's 3")
	wantErr(t, call(t, op, self, 1, idx, shapeIota(t, 2, 2), out, out), "size 3 at dimension 1 exceeds src's 2")
	wantErr(t, call(t, op, self, 1, idx, tensor(t, []int32{0, 1, 2, 3, 4, 5}, 2, 3), out, out), "dtype int32, want self's float32")
	wantErr(t, call(t, op, tensor(t, []float32{1}), 0, tensor(t, []int64{1}, 1), tensor(t, []float32{1}, 1), empty(t, executor.Float32), none), "index 1 is out of bounds")
	wantErr(t, call(t, op, self, 1, idx, self, empty(t, executor.Float32, 3, 2), none), "cannot resize a static tensor")
	wantErr(t, call(t, op, self, 1, idx, self, empty(t, executor.Float64, 2, 3), none), "keeps the dtype")
	wantErr(t, call(t, op, self, 1, idx, 2.0, out, out), "argument 3 (src): want Tensor")
}
