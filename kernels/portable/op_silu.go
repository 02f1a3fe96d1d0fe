package portable

import "math"

// aten::silu.out(Tensor self, *, Tensor(a!) out): x * sigmoid(x), floating types only, out of
// self's dtype.
func init() {
	register(arithKeepKernel("aten::silu.out", unboxSiluOut, floatTypes,
		func(x float64) float64 { return x / (1 + math.Exp(-x)) }, nil))
}
