package portable

import "math"

// aten::sigmoid.out(Tensor self, *, Tensor(a!) out): 1/(1 + e^-self). Integral and bool inputs
// compute in float32; out must be floating.
func init() {
	register(arithFloatKernel("aten::sigmoid.out", unboxSigmoidOut, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }))
}
