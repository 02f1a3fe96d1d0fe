package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.nn.functional.gelu. At ±inf the kernel gives 0 and inf, as
// ExecuTorch's portable kernel does (eager PyTorch's vectorized CPU path gives NaN).
func TestGelu(t *testing.T) {
	x := []float32{-2.5, -1, -0.25, 0, 0.5, 1, 3}
	for _, tc := range []struct {
		name, approx string
		in, out      *executor.Tensor
		want         []float64
	}{
		{"none float32", "none", tensor(t, x, 7), empty(t, executor.Float32, 7),
			[]float64{-0.015524178743362427, -0.15865525603294373, -0.10032341629266739, 0.0, 0.3457312285900116, 0.8413447141647339, 2.9959497451782227}},
		{"tanh float32", "tanh", tensor(t, x, 7), empty(t, executor.Float32, 7),
			[]float64{-0.015084296464920044, -0.15880799293518066, -0.10032464563846588, 0.0, 0.3457140028476715, 0.8411920070648193, 2.9963626861572266}},
		{"none float64", "none", tensor(t, []float64{-4, -1, 0, 1, 3.5}, 5), empty(t, executor.Float64, 5),
			[]float64{-0.00012668496733247991, -0.15865525393145702, 0.0, 0.841344746068543, 3.4991857982233756}},
		{"tanh float64 2-d", "tanh", tensor(t, []float64{-4, -1, 1, 3.5}, 2, 2), empty(t, executor.Float64, 2, 2),
			[]float64{-7.024594819227126e-05, -0.15880800939172324, 0.8411919906082768, 3.499383802344626}},
		{"none float16", "none", arithTyped(t, executor.Float16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float16, 3),
			[]float64{0.053955078125, 1.6240234375, -0.0015916824340820312}},
		{"tanh float16", "tanh", arithTyped(t, executor.Float16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float16, 3),
			[]float64{0.053955078125, 1.6240234375, -0.0013074874877929688}},
		{"none inf and nan", "none", tensor(t, []float32{float32(-arithInf), float32(arithInf), float32(arithNaN)}, 3), empty(t, executor.Float32, 3),
			[]float64{0, arithInf, arithNaN}},
		{"tanh inf", "tanh", tensor(t, []float32{float32(-arithInf), float32(arithInf)}, 2), empty(t, executor.Float32, 2),
			[]float64{0, arithInf}},
		{"empty", "none", tensor(t, []float32{}, 0), empty(t, executor.Float32, 0), []float64{}},
		{"dynamic out", "none", tensor(t, []float32{1}, 1), dynamic(t, executor.Float32, 5), []float64{0.8413447141647339}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::gelu.out", tc.in, tc.approx, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
		})
	}
	f := tensor(t, []float32{1}, 1)
	wantErr(t, call(t, "aten::gelu.out", f, "erf", empty(t, executor.Float32, 1), none), `argument 1 (approximate): want "none" or "tanh", got "erf"`)
	wantErr(t, call(t, "aten::gelu.out", f, none, empty(t, executor.Float32, 1), none), "argument 1 (approximate): want String, got None")
	wantErr(t, call(t, "aten::gelu.out", tensor(t, []int32{1}, 1), "none", empty(t, executor.Int32, 1), none), "not supported for int32")
	wantErr(t, call(t, "aten::gelu.out", f, "none", empty(t, executor.Float64, 1), none), "want self's dtype")
	wantErr(t, call(t, "aten::gelu.out", f, "none", empty(t, executor.Float32, 2), none), "cannot resize")
	wantErr(t, call(t, "aten::gelu.out", f, "none", empty(t, executor.Float32, 1)), "3 arguments")
}
