package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.topk (torch 2.15).
func TestTopk(t *testing.T) {
	nan := math.NaN()
	f32 := executor.Float32
	x := func() *executor.Tensor { return tensor(t, []float32{1, 5, 3, -2, 7, 0, -1, 4}, 2, 4) }
	signs := make([]float32, 24)
	for i := range signs {
		signs[i] = float32(i) * float32(1-2*(i%2))
	}
	for _, tc := range []struct {
		name    string
		in      *executor.Tensor
		k, dim  int
		largest bool
		vals    *executor.Tensor
		sizes   []int
		want    []float64
		wantIdx []float64
	}{
		{"largest last dim", x(), 2, -1, true, empty(t, f32, 2, 2), []int{2, 2}, []float64{5, 3, 7, 4}, []float64{1, 2, 0, 3}},
		{"smallest", x(), 2, 1, false, empty(t, f32, 2, 2), []int{2, 2}, []float64{-2, 1, -1, 0}, []float64{3, 0, 2, 1}},
		{"dim 0", x(), 1, 0, true, empty(t, f32, 1, 4), []int{1, 4}, []float64{7, 5, 3, 4}, []float64{1, 0, 0, 1}},
		{"dim -2 smallest, k = size", x(), 2, -2, false, empty(t, f32, 2, 4), []int{2, 4},
			[]float64{1, 0, -1, -2, 7, 5, 3, 4}, []float64{0, 1, 1, 0, 1, 0, 0, 1}},
		{"middle dim of 3-d", tensor(t, signs, 2, 3, 4), 2, 1, true, empty(t, f32, 2, 2, 4), []int{2, 2, 4},
			[]float64{8, -1, 10, -3, 4, -5, 6, -7, 20, -13, 22, -15, 16, -17, 18, -19},
			[]float64{2, 0, 2, 0, 1, 1, 1, 1, 2, 0, 2, 0, 1, 1, 1, 1}},
		{"NaN is largest", tensor(t, []float64{1, nan, 3, -1}, 4), 2, 0, true, empty(t, executor.Float64, 2), []int{2}, []float64{nan, 3}, []float64{1, 2}},
		{"NaN last when smallest", tensor(t, []float64{1, nan, 3, -1}, 4), 4, 0, false, empty(t, executor.Float64, 4), []int{4},
			[]float64{-1, 1, 3, nan}, []float64{3, 0, 2, 1}},
		{"int32", tensor(t, []int32{5, -3, 9, 0}, 4), 3, 0, true, empty(t, executor.Int32, 3), []int{3}, []float64{9, 5, 0}, []float64{2, 0, 3}},
		{"int8 smallest", tensor(t, []int8{5, -3, 9, 0}, 4), 2, 0, false, empty(t, executor.Int8, 2), []int{2}, []float64{-3, 0}, []float64{1, 3}},
		{"float16", arithTyped(t, executor.Float16, []float64{1.5, -0.5, 2.5}, 3), 2, 0, true, empty(t, executor.Float16, 2), []int{2}, []float64{2.5, 1.5}, []float64{2, 0}},
		{"k = 0", x(), 0, 1, true, empty(t, f32, 2, 0), []int{2, 0}, nil, nil},
		{"empty lanes", tensor(t, []float32{}, 2, 0), 0, 1, true, empty(t, f32, 2, 0), []int{2, 0}, nil, nil},
		{"0-d, k = 0", tensor(t, []float32{5}), 0, 0, true, empty(t, f32), []int{}, []float64{5}, []float64{0}},
		{"0-d, k = 1, dim -1", tensor(t, []float32{5}), 1, -1, true, empty(t, f32), []int{}, []float64{5}, []float64{0}},
		{"channels-last self and values", shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), 2, 1, true,
			shapeOrderedEmpty(t, f32, []int{1, 2, 2, 2}, channelsLast), []int{1, 2, 2, 2},
			[]float64{8, 9, 10, 11, 4, 5, 6, 7}, []float64{2, 2, 2, 2, 1, 1, 1, 1}},
		{"bfloat16 smallest", arithTyped(t, executor.BFloat16, []float64{1.5, -0.5, 2.5}, 3), 1, 0, false, empty(t, executor.BFloat16, 1), []int{1}, []float64{-0.5}, []float64{1}},
		{"dynamic outs", x(), 3, 1, true, dynamic(t, f32, 2, 4), []int{2, 3}, []float64{5, 3, 1, 7, 4, 0}, []float64{1, 2, 0, 0, 3, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			idx := empty(t, executor.Int64, tc.sizes...)
			if tc.vals.Dynamism() != executor.Static { // dynamic values: indices of the same bounds
				idx = dynamic(t, executor.Int64, tc.vals.Sizes()...)
			}
			ret := []*executor.Tensor{tc.vals, idx}
			if err := call(t, "aten::topk.values", tc.in, tc.k, tc.dim, tc.largest, true, tc.vals, idx, ret); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.vals, tc.sizes, tc.want)
			wantValuesAny(t, idx, tc.sizes, tc.wantIdx)
		})
	}
}

// Ties: torch.topk([3, 1, 3, 2, 3], 2) gives values [3, 3] with indices [2, 4]; equal elements
// come in no specified order, here in their order along dim.
func TestTopkTies(t *testing.T) {
	v, idx := empty(t, executor.Float32, 2), empty(t, executor.Int64, 2)
	if err := call(t, "aten::topk.values", tensor(t, []float32{3, 1, 3, 2, 3}, 5), 2, 0, true, false, v, idx, none); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, v, []int{2}, []float64{3, 3})
	wantValuesAny(t, idx, []int{2}, []float64{0, 2})
}

// A value beyond 2^53 is compared exactly.
func TestTopkInt64Exact(t *testing.T) {
	v, idx := empty(t, executor.Int64, 1), empty(t, executor.Int64, 1)
	in := tensor(t, []int64{1<<60 + 1, 1 << 60, 1<<60 + 2}, 3)
	if err := call(t, "aten::topk.values", in, 1, 0, true, true, v, idx, none); err != nil {
		t.Fatal(err)
	}
	if got := executor.Data[int64](v)[0]; got != 1<<60+2 || executor.Data[int64](idx)[0] != 2 {
		t.Fatalf("got %d at %d", got, executor.Data[int64](idx)[0])
	}
}

func TestTopkErrors(t *testing.T) {
	op := "aten::topk.values"
	x := tensor(t, []float32{1, 5, 3, -2, 7, 0, -1, 4}, 2, 4)
	v, i := empty(t, executor.Float32, 2, 2), empty(t, executor.Int64, 2, 2)
	wantErr(t, call(t, op, x, 2, 1, true, true, empty(t, executor.Float64, 2, 2), i, none), "input's dtype float32")
	wantErr(t, call(t, op, x, 2, 1, true, true, v, empty(t, executor.Int32, 2, 2), none), "must be int64")
	wantErr(t, call(t, op, x, 2, 2, true, true, v, i, none), "dimension 2 out of range for rank 2")
	wantErr(t, call(t, op, x, 5, 1, true, true, v, i, none), "k = 5 is out of range for dimension 1 of size 4")
	wantErr(t, call(t, op, x, -1, 1, true, true, v, i, none), "k = -1 is out of range")
	wantErr(t, call(t, op, tensor(t, []float32{5}), 2, 0, true, true, empty(t, executor.Float32), empty(t, executor.Int64), none), "k = 2 is out of range")
	wantErr(t, call(t, op, x, 3, 1, true, true, v, i, none), "values: ")
	wantErr(t, call(t, op, x, 2, 1, true, true, v, empty(t, executor.Int64, 3), none), "indices: ")
	wantErr(t, call(t, op, x, 2, 1, 1, true, v, i, none), "argument 3 (largest): want Bool")
	wantErr(t, call(t, op, x, 2, 1, true, true, v, i), "7 arguments")
}
