package portable

import "math"

// aten::hardsigmoid.out(Tensor self, *, Tensor(a!) out): min(max(x + 3, 0), 6) / 6, floating
// types only, out of self's dtype.
func init() {
	register(arithKeepKernel("aten::hardsigmoid.out", unboxHardsigmoidOut, floatTypes,
		func(x float64) float64 { return math.Min(math.Max(x+3, 0), 6) / 6 }, nil))
}
