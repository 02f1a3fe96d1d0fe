package portable

import "math"

// aten::rsqrt.out(Tensor self, *, Tensor(a!) out): 1/sqrt(self). Integral and bool inputs
// compute in float32; out must be floating.
func init() {
	// The official rsqrt<T> is `1.0 / std::sqrt(x)`: sqrtf rounds to float32, the double literal
	// makes the division float64, and the return rounds to float32 again.
	register(arithFloatKernel32("aten::rsqrt.out", unboxRsqrtOut, func(x float64) float64 { return 1 / math.Sqrt(x) },
		func(x float32) float32 { return float32(1 / float64(float32(math.Sqrt(float64(x))))) }))
}
