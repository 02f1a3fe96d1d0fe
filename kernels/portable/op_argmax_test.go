package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestArgmax(t *testing.T) {
	nan := math.NaN()
	x := func() *executor.Tensor { return tensor(t, []float32{1, 5, 5, 7, 2, 7}, 2, 3) }
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
		{"dim 0 keepdim", x(), -2, true, empty(t, executor.Int64, 1, 3), []int{1, 3}, []float64{1, 0, 1}},
		{"None flattens", x(), none, false, empty(t, executor.Int64), []int{}, []float64{3}},
		{"None keepdim", x(), none, true, empty(t, executor.Int64, 1, 1), []int{1, 1}, []float64{3}},
		{"first NaN wins", tensor(t, []float64{1, nan, 3, nan}, 4), 0, false, empty(t, executor.Int64), []int{}, []float64{1}},
		{"int16", tensor(t, []int16{-5, 9, 9, 2}, 2, 2), 1, false, empty(t, executor.Int64, 2), []int{2}, []float64{1, 0}},
		{"rank 0", tensor(t, []float32{4}), 0, false, empty(t, executor.Int64), []int{}, []float64{0}},
		{"empty kept dim", tensor(t, []float32{}, 0, 3), 1, false, empty(t, executor.Int64, 0), []int{0}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::argmax.out", tc.in, tc.dim, tc.keepdim, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
	wantErr(t, call(t, "aten::argmax.out", x(), 1, false, empty(t, executor.Int32, 2), none), "must be int64")
	wantErr(t, call(t, "aten::argmax.out", tensor(t, []bool{true}, 1), 0, false, empty(t, executor.Int64), none), "bool input")
	wantErr(t, call(t, "aten::argmax.out", tensor(t, []float32{}, 0, 3), 0, false, empty(t, executor.Int64, 3), none), "zero size")
	wantErr(t, call(t, "aten::argmax.out", tensor(t, []float32{}, 0, 3), none, false, empty(t, executor.Int64), none), "zero size")
	wantErr(t, call(t, "aten::argmax.out", x(), 2, false, empty(t, executor.Int64, 2), none), "out of range")
	wantErr(t, call(t, "aten::argmax.out", x(), []int64{1}, false, empty(t, executor.Int64, 2), none), "want Int")
}
