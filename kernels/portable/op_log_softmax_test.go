package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.log_softmax (torch 2.x, float32).
func TestLogSoftmax(t *testing.T) {
	y := []float32{0.5, -1.25, 3.0, 2.0, 2.0, -7.5}
	for _, tc := range []struct {
		name string
		in   *executor.Tensor
		dim  int
		out  *executor.Tensor
		want []float64
	}{
		{"last dim", tensor(t, y, 2, 3), 1, empty(t, executor.Float32, 2, 3),
			[]float64{-2.5919857025146484, -4.341985702514648, -0.091985784471035, -0.6931846141815186, -0.6931846141815186, -10.193184852600098}},
		{"dim 0", tensor(t, y, 2, 3), 0, empty(t, executor.Float32, 2, 3),
			[]float64{-1.7014133930206299, -3.288041353225708, -2.753696753643453e-05, -0.2014133334159851, -0.03804141283035278, -10.500027656555176}},
		{"large values are stable", tensor(t, []float64{1000, 1001, 1002}, 3), 0, empty(t, executor.Float64, 3),
			[]float64{-2.4076059644443806, -1.4076059644443806, -0.4076059644443806}},
		{"-inf stays -inf", tensor(t, []float32{float32(math.Inf(-1)), 1}, 2), 0, empty(t, executor.Float32, 2), []float64{math.Inf(-1), 0}},
		{"float16", reduceHalf(t, executor.Float16, 1, 1), 0, empty(t, executor.Float16, 2), []float64{-0.693359375, -0.693359375}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::_log_softmax.out", tc.in, tc.dim, false, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
		})
	}
	x := tensor(t, y, 2, 3)
	wantErr(t, call(t, "aten::_log_softmax.out", x, 1, true, empty(t, executor.Float32, 2, 3), none), "half to float")
	wantErr(t, call(t, "aten::_log_softmax.out", x, -3, false, empty(t, executor.Float32, 2, 3), none), "out of range")
	wantErr(t, call(t, "aten::_log_softmax.out", x, 1, false, empty(t, executor.Float32, 2, 3)), "4 arguments")
}
