package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestLinear(t *testing.T) {
	// x [2, 3], w [2, 3], b [2]: torch.nn.functional.linear(x, w, b).
	x := tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	w := tensor(t, []float32{1, 0, -1, 0.5, 0.5, 0.5}, 2, 3)
	b := tensor(t, []float32{10, -1}, 2)
	for _, tc := range []struct {
		name string
		x    *executor.Tensor
		bias any
		out  *executor.Tensor
		want []float64
	}{
		{"with bias", x, b, empty(t, executor.Float32, 2, 2), []float64{8, 2, 8, 6.5}},
		{"no bias", x, none, empty(t, executor.Float32, 2, 2), []float64{-2, 3, -2, 7.5}},
		{"3-d input", tensor(t, []float32{1, 2, 3, 4, 5, 6}, 1, 2, 3), b, empty(t, executor.Float32, 1, 2, 2), []float64{8, 2, 8, 6.5}},
		{"float64", tensor(t, []float64{1, 2, 3}, 1, 3), tensor(t, []float64{0, 0}, 2), empty(t, executor.Float64, 1, 2), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			weight := w
			if tc.x.ScalarType() == executor.Float64 {
				weight = tensor(t, []float64{1, 0, -1, 0.5, 0.5, 0.5}, 2, 3)
				tc.want = []float64{-2, 3}
			}
			if err := call(t, "aten::linear.out", tc.x, weight, tc.bias, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.out.Sizes(), tc.want)
		})
	}
	wantErr(t, call(t, "aten::linear.out", x, tensor(t, []float32{1, 2}, 1, 2), none, empty(t, executor.Float32, 2, 1), none), "do not match input")
	wantErr(t, call(t, "aten::linear.out", x, w, tensor(t, []float32{1, 2, 3}, 3), empty(t, executor.Float32, 2, 2), none), "want [2]")
	wantErr(t, call(t, "aten::linear.out", x, w, none, empty(t, executor.Float32, 3, 2), none), "cannot resize")
}
