package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestMaxDim(t *testing.T) {
	nan := math.NaN()
	x := func() *executor.Tensor { return tensor(t, []float32{1, 5, 5, 7, 2, 7}, 2, 3) }
	for _, tc := range []struct {
		name     string
		in       *executor.Tensor
		dim      int
		keepdim  bool
		vals     *executor.Tensor
		sizes    []int
		want     []float64
		wantIdx  []float64
		idxSizes []int
	}{
		{"dim 1", x(), 1, false, empty(t, executor.Float32, 2), []int{2}, []float64{5, 7}, []float64{1, 0}, []int{2}},
		{"dim -2 keepdim", x(), -2, true, empty(t, executor.Float32, 1, 3), []int{1, 3}, []float64{7, 5, 7}, []float64{1, 0, 1}, []int{1, 3}},
		{"NaN", tensor(t, []float64{1, nan, 3}, 3), 0, false, empty(t, executor.Float64), []int{}, []float64{nan}, []float64{1}, []int{}},
		{"bool", tensor(t, []bool{false, true, true, false}, 2, 2), 0, false, empty(t, executor.Bool, 2), []int{2}, []float64{1, 1}, []float64{1, 0}, []int{2}},
		{"int32", tensor(t, []int32{-4, -2, -9}, 3), 0, false, empty(t, executor.Int32), []int{}, []float64{-2}, []float64{1}, []int{}},
		{"rank 0", tensor(t, []float32{3}), 0, true, empty(t, executor.Float32), []int{}, []float64{3}, []float64{0}, []int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			idx := empty(t, executor.Int64, tc.idxSizes...)
			ret := []*executor.Tensor{tc.vals, idx}
			if err := call(t, "aten::max.dim_max", tc.in, tc.dim, tc.keepdim, tc.vals, idx, ret); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.vals, tc.sizes, tc.want)
			wantValuesAny(t, idx, tc.sizes, tc.wantIdx)
		})
	}
	v, i := empty(t, executor.Float32, 2), empty(t, executor.Int64, 2)
	wantErr(t, call(t, "aten::max.dim_max", x(), 1, false, empty(t, executor.Float64, 2), i, none), "input's dtype")
	wantErr(t, call(t, "aten::max.dim_max", x(), 1, false, v, empty(t, executor.Int32, 2), none), "must be int64")
	wantErr(t, call(t, "aten::max.dim_max", x(), 1, false, v, empty(t, executor.Int64, 3), none), "indices: ")
	wantErr(t, call(t, "aten::max.dim_max", x(), 3, false, v, i, none), "out of range")
	wantErr(t, call(t, "aten::max.dim_max", tensor(t, []float32{}, 2, 0), 1, false, v, i, none), "zero size")
	wantErr(t, call(t, "aten::max.dim_max", x(), 1, false, v, i), "5 arguments")
}

func TestMaxUnary(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		in   *executor.Tensor
		out  *executor.Tensor
		want float64
	}{
		{"float32", tensor(t, []float32{1, 9, -3, 4}, 2, 2), empty(t, executor.Float32), 9},
		{"NaN", tensor(t, []float32{1, float32(nan), 4}, 3), empty(t, executor.Float32), nan},
		{"int8 into int64", tensor(t, []int8{-1, -7}, 2), empty(t, executor.Int64), -1},
		{"bool", tensor(t, []bool{false, true}, 2), empty(t, executor.Bool), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::max.unary_out", tc.in, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, []int{}, []float64{tc.want})
		})
	}
	wantErr(t, call(t, "aten::max.unary_out", tensor(t, []float32{}, 0), empty(t, executor.Float32), none), "zero size")
	wantErr(t, call(t, "aten::max.unary_out", tensor(t, []float32{1}, 1), empty(t, executor.Int32), none), "cannot be written")
	wantErr(t, call(t, "aten::max.unary_out", tensor(t, []float32{1}, 1), empty(t, executor.Float32, 1), none), "cannot resize")
}
