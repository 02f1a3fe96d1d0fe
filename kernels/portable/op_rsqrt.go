package portable

import "math"

// aten::rsqrt.out(Tensor self, *, Tensor(a!) out): 1/sqrt(self). Integral and bool inputs
// compute in float32; out must be floating.
func init() {
	register(arithFloatKernel("aten::rsqrt.out", unboxRsqrtOut, func(x float64) float64 { return 1 / math.Sqrt(x) }))
}
