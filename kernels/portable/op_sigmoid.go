package portable

import "math"

// aten::sigmoid.out(Tensor self, *, Tensor(a!) out): 1/(1 + e^-self). Integral and bool inputs
// compute in float32; out must be floating.
func init() {
	// The official float32 form is float arithmetic around expf: one / (one + exp(-x)).
	register(arithFloatKernel32("aten::sigmoid.out", unboxSigmoidOut, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) },
		func(x float32) float32 { return 1 / (1 + float32(math.Exp(float64(-x)))) }))
}
