package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestArgmin(t *testing.T) {
	nan := math.NaN()
	x := func() *executor.Tensor { return tensor(t, []float32{3, 1, 1, 0, 2, 0}, 2, 3) }
	for _, tc := range []struct {
		name    string
		in      *executor.Tensor
		dim     any
		keepdim bool
		out     *executor.Tensor
		sizes   []int
		want    []float64
	}{
		{"dim 1 first of ties", x(), 1, false, empty(t, executor.Int64, 2), []int{2}, []float64{1, 0}},
		{"dim 0", x(), 0, true, empty(t, executor.Int64, 1, 3), []int{1, 3}, []float64{1, 0, 1}},
		{"None flattens", x(), none, false, empty(t, executor.Int64), []int{}, []float64{3}},
		{"first NaN wins", tensor(t, []float32{1, -9, float32(nan)}, 3), none, false, empty(t, executor.Int64), []int{}, []float64{2}},
		{"uint8", tensor(t, []uint8{200, 7, 255}, 3), 0, false, empty(t, executor.Int64), []int{}, []float64{1}},
		{"bfloat16", reduceHalf(t, executor.BFloat16, 0.5, -2, 4), 0, false, empty(t, executor.Int64), []int{}, []float64{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::argmin.out", tc.in, tc.dim, tc.keepdim, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
	wantErr(t, call(t, "aten::argmin.out", x(), 1, false, empty(t, executor.Float32, 2), none), "must be int64")
	wantErr(t, call(t, "aten::argmin.out", x(), 1, false, empty(t, executor.Int64, 3), none), "cannot resize")
}
