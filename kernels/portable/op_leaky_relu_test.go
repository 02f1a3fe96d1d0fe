package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.nn.functional.leaky_relu.
func TestLeakyRelu(t *testing.T) {
	x := []float32{-2.5, -1, -0.25, 0, 0.5, 1, 3}
	for _, tc := range []struct {
		name    string
		in, out *executor.Tensor
		slope   any
		want    []float64
	}{
		{"float32 default slope", tensor(t, x, 7), empty(t, executor.Float32, 7), 0.01,
			[]float64{-0.02499999850988388, -0.009999999776482582, -0.0024999999441206455, 0.0, 0.5, 1.0, 3.0}},
		{"float32 slope 0.1", tensor(t, x, 7), empty(t, executor.Float32, 7), 0.1,
			[]float64{-0.25, -0.10000000149011612, -0.02500000037252903, 0.0, 0.5, 1.0, 3.0}},
		{"int slope", tensor(t, []float32{-2, 3}, 2), empty(t, executor.Float32, 2), 2, []float64{-4, 3}},
		{"float64", tensor(t, []float64{-4, -1, 0, 1, 3.5}, 5), empty(t, executor.Float64, 5), 0.01, []float64{-0.04, -0.01, 0.0, 1.0, 3.5}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float16, 3), 0.01,
			[]float64{0.0999755859375, 1.7001953125, -0.03302001953125}},
		{"nan", tensor(t, []float32{float32(arithNaN), float32(-arithInf)}, 2), empty(t, executor.Float32, 2), 0.01, []float64{arithNaN, -arithInf}},
		{"empty", tensor(t, []float32{}, 0), empty(t, executor.Float32, 0), 0.01, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::leaky_relu.out", tc.in, tc.slope, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
		})
	}
	f := tensor(t, []float32{1}, 1)
	wantErr(t, call(t, "aten::leaky_relu.out", tensor(t, []int64{1}, 1), 0.01, empty(t, executor.Int64, 1), none), "not supported for int64")
	wantErr(t, call(t, "aten::leaky_relu.out", f, "x", empty(t, executor.Float32, 1), none), "argument 1 (negative_slope): want a Scalar")
	wantErr(t, call(t, "aten::leaky_relu.out", arithTyped(t, executor.Float16, []float64{1}, 1), 1e6, empty(t, executor.Float16, 1), none), "out of range for float16")
	wantErr(t, call(t, "aten::leaky_relu.out", f, 0.01, empty(t, executor.Float64, 1), none), "want self's dtype")
	wantErr(t, call(t, "aten::leaky_relu.out", f, 0.01, empty(t, executor.Float32, 2), none), "cannot resize")
	wantErr(t, call(t, "aten::leaky_relu.out", f, 0.01, none), "3 arguments")
}
