package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestAmin(t *testing.T) {
	nan := math.NaN()
	x := func() *executor.Tensor { return tensor(t, []float32{1, 7, 3, -4, 5, 6}, 2, 3) }
	for _, tc := range []struct {
		name    string
		in      *executor.Tensor
		dim     []int64
		keepdim bool
		out     *executor.Tensor
		sizes   []int
		want    []float64
	}{
		{"dim 1", x(), []int64{1}, false, empty(t, executor.Float32, 2), []int{2}, []float64{1, -4}},
		{"[] is every dim", x(), []int64{}, true, empty(t, executor.Float32, 1, 1), []int{1, 1}, []float64{-4}},
		{"NaN propagates", tensor(t, []float64{nan, 1, 3, 2}, 2, 2), []int64{0}, false, empty(t, executor.Float64, 2), []int{2}, []float64{nan, 1}},
		{"int8", tensor(t, []int8{-3, 4, -128}, 3), []int64{0}, false, empty(t, executor.Int8), []int{}, []float64{-128}},
		{"float16", reduceHalf(t, executor.Float16, 2, -1.5, 0.25, 8), []int64{0}, false, empty(t, executor.Float16), []int{}, []float64{-1.5}},
		{"rank 0", tensor(t, []int32{9}), []int64{-1}, false, empty(t, executor.Int32), []int{}, []float64{9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::amin.out", tc.in, tc.dim, tc.keepdim, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
	wantErr(t, call(t, "aten::amin.out", tensor(t, []float32{}, 2, 0), []int64{1}, false, empty(t, executor.Float32, 2), none), "zero size")
	wantErr(t, call(t, "aten::amin.out", x(), []int64{1}, false, empty(t, executor.Int32, 2), none), "input's dtype float32")
	wantErr(t, call(t, "aten::amin.out", x(), []int64{-3}, false, empty(t, executor.Float32, 2), none), "out of range")
}
