package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestMinDim(t *testing.T) {
	nan := math.NaN()
	x := func() *executor.Tensor { return tensor(t, []float32{1, 5, 1, 7, 2, 2}, 2, 3) }
	for _, tc := range []struct {
		name    string
		in      *executor.Tensor
		dim     int
		keepdim bool
		vals    *executor.Tensor
		idx     *executor.Tensor
		sizes   []int
		want    []float64
		wantIdx []float64
	}{
		{"dim 1", x(), 1, false, empty(t, executor.Float32, 2), empty(t, executor.Int64, 2), []int{2}, []float64{1, 2}, []float64{0, 1}},
		{"dim 0 keepdim", x(), 0, true, empty(t, executor.Float32, 1, 3), empty(t, executor.Int64, 1, 3), []int{1, 3}, []float64{1, 2, 1}, []float64{0, 1, 0}},
		{"NaN", tensor(t, []float64{1, -3, nan}, 3), -1, false, empty(t, executor.Float64), empty(t, executor.Int64), []int{}, []float64{nan}, []float64{2}},
		{"int64", tensor(t, []int64{4, -2, 9}, 3), 0, false, empty(t, executor.Int64), empty(t, executor.Int64), []int{}, []float64{-2}, []float64{1}},
		{"dynamic outs", x(), 1, true, dynamic(t, executor.Float32, 4, 4), dynamic(t, executor.Int64, 4, 4), []int{2, 1}, []float64{1, 2}, []float64{0, 1}},
		{"empty kept dim", tensor(t, []float32{}, 0, 3), 1, false, empty(t, executor.Float32, 0), empty(t, executor.Int64, 0), []int{0}, []float64{}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ret := []*executor.Tensor{tc.vals, tc.idx}
			if err := call(t, "aten::min.dim_min", tc.in, tc.dim, tc.keepdim, tc.vals, tc.idx, ret); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.vals, tc.sizes, tc.want)
			wantValuesAny(t, tc.idx, tc.sizes, tc.wantIdx)
		})
	}
	wantErr(t, call(t, "aten::min.dim_min", x(), 1, false, empty(t, executor.Float32, 3), empty(t, executor.Int64, 2), none), "values: ")
	wantErr(t, call(t, "aten::min.dim_min", x(), 1.0, false, empty(t, executor.Float32, 2), empty(t, executor.Int64, 2), none), "want Int")

	out := empty(t, executor.Float64)
	if err := call(t, "aten::min.unary_out", tensor(t, []float32{3, -0.5, 2}, 3), out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{}, []float64{-0.5})
	wantErr(t, call(t, "aten::min.unary_out", tensor(t, []int32{}, 0), empty(t, executor.Int32), none), "zero size")
}
