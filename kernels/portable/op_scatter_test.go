package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.scatter (torch 2.15).
func TestScatterSrc(t *testing.T) {
	f32 := executor.Float32
	oneTo12 := make([]float32, 12)
	for i := range oneTo12 {
		oneTo12[i] = float32(i + 1)
	}
	src := func() *executor.Tensor { return tensor(t, oneTo12, 3, 4) }
	plus100 := make([]float32, 12)
	for i := range plus100 {
		plus100[i] = float32(i + 100)
	}
	zeros := func() *executor.Tensor { return empty(t, f32, 3, 4) }
	shapeRun(t, "aten::scatter.src_out", []shapeCase{
		{"dim 0", []any{zeros(), 0, tensor(t, []int64{2, 0, 1, 2, 1, 2, 0, 0}, 2, 4), src(), empty(t, f32, 3, 4)}, []int{3, 4},
			[]float64{0, 2, 7, 8, 5, 0, 3, 0, 1, 6, 0, 4}},
		{"dim 1, smaller index", []any{zeros(), 1, tensor(t, []int64{3, 0, 1, 2}, 2, 2), src(), empty(t, f32, 3, 4)}, []int{3, 4},
			[]float64{2, 0, 0, 1, 0, 5, 6, 0, 0, 0, 0, 0}},
		{"dim -1", []any{zeros(), -1, tensor(t, []int64{3, 0, 2}, 3, 1), src(), empty(t, f32, 3, 4)}, []int{3, 4},
			[]float64{0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 9, 0}},
		{"repeated index: the last wins", []any{tensor(t, []int64{1, 2, 3}, 3), 0, tensor(t, []int64{2, 2}, 2), tensor(t, []int64{7, 8, 9}, 3),
			empty(t, executor.Int64, 3)}, []int{3}, []float64{1, 2, 8}},
		{"0-d index and src", []any{empty(t, f32, 3), 0, tensor(t, []int64{1}), tensor(t, []float32{5}), empty(t, f32, 3)}, []int{3}, []float64{0, 5, 0}},
		{"0-d self", []any{tensor(t, []float32{10}), 0, tensor(t, []int64{0, 0}, 2), tensor(t, []float32{1, 2, 3}, 3), empty(t, f32)}, []int{}, []float64{2}},
		{"empty index copies self", []any{src(), 1, tensor(t, []int64{}, 0), tensor(t, []float32{1}, 1), empty(t, f32, 3, 4)}, []int{3, 4}, shapeSeq(1, 13)},
		{"channels-last self, src and out", []any{shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), 1,
			tensor(t, []int64{2, 0, 1, 2}, 1, 1, 2, 2), shapeOrdered(t, plus100, []int{1, 3, 2, 2}, channelsLast),
			shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)}, []int{1, 3, 2, 2},
			[]float64{0, 101, 2, 3, 4, 5, 102, 7, 100, 9, 10, 103}},
	})
}

// Expected values from torch.scatter with a Scalar value (torch 2.15).
func TestScatterValue(t *testing.T) {
	shapeRun(t, "aten::scatter.value_out", []shapeCase{
		{"int32", []any{tensor(t, []int32{0, 1, 2, 3, 4, 5}, 2, 3), 1, tensor(t, []int64{2, 0}, 2, 1), -7, empty(t, executor.Int32, 2, 3)}, []int{2, 3},
			[]float64{0, 1, -7, -7, 4, 5}},
		{"bool", []any{empty(t, executor.Bool, 2, 3), 0, tensor(t, []int64{1, 0, 1}, 1, 3), true, empty(t, executor.Bool, 2, 3)}, []int{2, 3},
			[]float64{0, 1, 0, 1, 0, 1}},
		{"double value", []any{empty(t, executor.Float32, 2, 2), 1, tensor(t, []int64{1, 1}, 1, 2), 2.5, empty(t, executor.Float32, 2, 2)}, []int{2, 2},
			[]float64{0, 2.5, 0, 0}},
		{"bfloat16", []any{empty(t, executor.BFloat16, 3), 0, tensor(t, []int64{0, 2}, 2), 1.5, empty(t, executor.BFloat16, 3)}, []int{3}, []float64{1.5, 0, 1.5}},
		{"channels-last", []any{shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), 1, tensor(t, []int64{2, 0, 1, 2}, 1, 1, 2, 2), -1.0,
			shapeOrderedEmpty(t, executor.Float32, []int{1, 3, 2, 2}, channelsLast)}, []int{1, 3, 2, 2},
			[]float64{0, -1, 2, 3, 4, 5, -1, 7, -1, 9, 10, -1}},
		{"empty self", []any{empty(t, executor.Float32, 2, 0), 1, tensor(t, []int64{}, 2, 0), 1.0, empty(t, executor.Float32, 2, 0)}, []int{2, 0}, nil},
	})
}

func TestScatterErrors(t *testing.T) {
	self := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 2, 3)
	idx := tensor(t, []int64{0, 1, 2, 0, 1, 2}, 2, 3)
	src := shapeIota(t, 2, 3)
	op := "aten::scatter.src_out"
	wantErr(t, call(t, op, self, 1, tensor(t, []int64{0, 3, 0, 0, 0, 0}, 2, 3), src, out, out), "index 3 is out of bounds for dimension 1 with size 3")
	wantErr(t, call(t, op, self, 1, tensor(t, []int64{0, -1, 0, 0, 0, 0}, 2, 3), src, out, out), "index -1 is out of bounds")
	wantErr(t, call(t, op, self, 2, idx, src, out, out), "dimension 2 out of range for rank 2")
	wantErr(t, call(t, op, self, 1, tensor(t, []int32{0, 1, 2, 0, 1, 2}, 2, 3), src, out, out), "index tensor must be int64, got int32")
	wantErr(t, call(t, op, self, 1, tensor(t, []int64{0, 0, 0}, 3), src, out, out), "has 1 dimensions, self has 2")
	wantErr(t, call(t, op, self, 1, tensor(t, []int64{0, 0, 0}, 3, 1), src, out, out), "size 3 at dimension 0 exceeds self's 2")
	wantErr(t, call(t, op, self, 0, tensor(t, []int64{0, 0, 0}, 3, 1), src, out, out), "size 3 at dimension 0 exceeds src's 2")
	wantErr(t, call(t, op, self, 1, idx, shapeIota(t, 6), out, out), "argument 3 (src): has 1 dimensions, self has 2")
	wantErr(t, call(t, op, self, 1, idx, tensor(t, []float64{0, 1, 2, 3, 4, 5}, 2, 3), out, out), "dtype float64, want self's float32")
	wantErr(t, call(t, op, self, 1, idx, src, empty(t, executor.Int32, 2, 3), none), "keeps the dtype")
	wantErr(t, call(t, op, self, 1, idx, src, empty(t, executor.Float32, 3, 2), none), "cannot resize a static tensor")
	wantErr(t, call(t, op, self, 1, idx, src, out), "5 arguments")

	op = "aten::scatter.value_out"
	wantErr(t, call(t, op, tensor(t, []int8{0, 0}, 2), 0, tensor(t, []int64{0}, 1), 300, empty(t, executor.Int8, 2), none), "value 300 overflows int8")
	wantErr(t, call(t, op, self, 1, tensor(t, []int64{3}, 1, 1), 1.0, out, out), "index 3 is out of bounds")
	wantErr(t, call(t, op, self, 1, tensor(t, []int64{0, 0, 0}, 3, 1), 1.0, out, out), "exceeds self's 2")
	wantErr(t, call(t, op, self, 1, idx, src, out, out), "argument 3 (value): want a Scalar")
	wantErr(t, call(t, op, self, 1, idx, 1.0, empty(t, executor.Float64, 2, 3), none), "keeps the dtype")
}
