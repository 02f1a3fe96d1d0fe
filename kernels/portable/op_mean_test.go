package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestMean(t *testing.T) {
	x := func() *executor.Tensor { return tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3) }
	nan := math.NaN()
	f32, f64 := int64(executor.Float32), int64(executor.Float64)
	for _, tc := range []struct {
		name    string
		in      *executor.Tensor
		dim     any
		keepdim bool
		dtype   any
		out     *executor.Tensor
		sizes   []int
		want    []float64
	}{
		{"dim 1", x(), []int64{1}, false, none, empty(t, executor.Float32, 2), []int{2}, []float64{2, 5}},
		{"dim 0 keepdim", x(), []int64{-2}, true, none, empty(t, executor.Float32, 1, 3), []int{1, 3}, []float64{2.5, 3.5, 4.5}},
		{"None", x(), none, false, none, empty(t, executor.Float32), []int{}, []float64{3.5}},
		{"[]", x(), []int64{}, true, none, empty(t, executor.Float32, 1, 1), []int{1, 1}, []float64{3.5}},
		{"int input with dtype", tensor(t, []int32{1, 2, 4}, 3), []int64{0}, false, f32, empty(t, executor.Float32), []int{}, []float64{7.0 / 3}},
		{"float32 into float64", x(), []int64{1}, false, none, empty(t, executor.Float64, 2), []int{2}, []float64{2, 5}},
		{"float64 dtype", tensor(t, []float64{0.1, 0.2}, 2), none, false, f64, empty(t, executor.Float64), []int{}, []float64{0.15000000000000002}},
		{"bfloat16", reduceHalf(t, executor.BFloat16, 1, 2, 4, 8), none, false, none, empty(t, executor.BFloat16), []int{}, []float64{3.75}},
		{"empty reduction is NaN", tensor(t, []float32{}, 0, 3), []int64{0}, false, none, empty(t, executor.Float32, 3), []int{3}, []float64{nan, nan, nan}},
		{"empty out", tensor(t, []float32{}, 0, 3), []int64{1}, false, none, empty(t, executor.Float32, 0), []int{0}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::mean.out", tc.in, tc.dim, tc.keepdim, tc.dtype, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
	out := empty(t, executor.Float64)
	if err := call(t, "aten::mean.dtype_out", tensor(t, []int64{1, 2, 3, 6}, 2, 2), f64, out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{}, []float64{3})

	i := tensor(t, []int32{1, 2}, 2)
	wantErr(t, call(t, "aten::mean.out", i, []int64{0}, false, none, empty(t, executor.Float32), none), "needs a floating input")
	wantErr(t, call(t, "aten::mean.out", i, []int64{0}, false, int64(executor.Int64), empty(t, executor.Int64), none), "needs a floating dtype")
	wantErr(t, call(t, "aten::mean.out", x(), []int64{0}, false, none, empty(t, executor.Int32, 3), none), "floating out")
	wantErr(t, call(t, "aten::mean.out", x(), []int64{0}, false, f64, empty(t, executor.Float32, 3), none), "differs from out's")
	wantErr(t, call(t, "aten::mean.out", x(), []int64{3}, false, none, empty(t, executor.Float32, 3), none), "out of range")
	wantErr(t, call(t, "aten::mean.out", x(), []int64{0}, false, none, empty(t, executor.Float32, 2), none), "cannot resize")
	wantErr(t, call(t, "aten::mean.dtype_out", x(), none, empty(t, executor.Float32)), "3 arguments")
}
