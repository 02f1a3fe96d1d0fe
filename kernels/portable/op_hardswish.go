package portable

import "math"

// aten::hardswish.out(Tensor self, *, Tensor(a!) out): x * min(max(x + 3, 0), 6) / 6, floating
// types only, out of self's dtype.
func init() {
	register(arithKeepKernel("aten::hardswish.out", unboxHardswishOut, floatTypes,
		func(x float64) float64 { return x * math.Min(math.Max(x+3, 0), 6) / 6 }, nil))
}
