package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestVarCorrection(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	x := func() *executor.Tensor { return tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3) }
	for _, tc := range []struct {
		name       string
		in         *executor.Tensor
		dim        any
		correction any
		keepdim    bool
		out        *executor.Tensor
		sizes      []int
		want       []float64
	}{
		{"dim 1 default correction", x(), []int64{1}, none, false, empty(t, executor.Float32, 2), []int{2}, []float64{1, 1}},
		{"None is every dim", x(), none, none, false, empty(t, executor.Float32), []int{}, []float64{3.5}},
		{"[] is every dim", x(), []int64{}, 1, false, empty(t, executor.Float32), []int{}, []float64{3.5}},
		{"correction 0 keepdim", x(), []int64{0}, 0, true, empty(t, executor.Float32, 1, 3), []int{1, 3}, []float64{2.25, 2.25, 2.25}},
		{"float correction", tensor(t, []float64{1, 2, 3, 4}, 4), none, 0.5, false, empty(t, executor.Float64), []int{}, []float64{5.0 / 3.5}},
		// PyTorch: sum2 / max(0, N - correction): inf, or NaN when sum2 is 0.
		{"no degrees of freedom", tensor(t, []float32{1, 2, 3, 3}, 2, 2), []int64{1}, 2, false, empty(t, executor.Float32, 2), []int{2}, []float64{inf, nan}},
		{"empty reduction", tensor(t, []float32{}, 0, 3), []int64{0}, none, false, empty(t, executor.Float32, 3), []int{3}, []float64{nan, nan, nan}},
		{"float16 into float32", reduceHalf(t, executor.Float16, 1, 3), none, none, false, empty(t, executor.Float32), []int{}, []float64{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::var.correction_out", tc.in, tc.dim, tc.correction, tc.keepdim, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
	out := empty(t, executor.Float32, 2)
	if err := call(t, "aten::var.out", x(), []int64{1}, false, false, out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{2}, []float64{2.0 / 3, 2.0 / 3})

	wantErr(t, call(t, "aten::var.correction_out", tensor(t, []int32{1, 2}, 2), none, none, false, empty(t, executor.Float32), none), "floating input")
	wantErr(t, call(t, "aten::var.correction_out", x(), none, none, false, empty(t, executor.Int64), none), "floating out")
	wantErr(t, call(t, "aten::var.correction_out", x(), none, "x", false, empty(t, executor.Float32), none), "argument 2 (correction)")
	wantErr(t, call(t, "aten::var.correction_out", x(), []int64{1}, none, false, empty(t, executor.Float32, 3), none), "cannot resize")
}
