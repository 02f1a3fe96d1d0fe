package portable

import "math"

// aten::trunc.out(Tensor self, *, Tensor(a!) out): rounds toward zero; integral types are
// unchanged.
func init() {
	register(arithKeepKernel("aten::trunc.out", unboxTruncOut, realTypes, math.Trunc, func(x int64) int64 { return x }))
}
