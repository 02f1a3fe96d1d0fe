package portable

import "math"

// aten::ceil.out(Tensor self, *, Tensor(a!) out): integral types are unchanged.
func init() {
	register(arithKeepKernel("aten::ceil.out", unboxCeilOut, realTypes, math.Ceil, func(x int64) int64 { return x }))
}
