package portable

import "math"

// aten::round.out(Tensor self, *, Tensor(a!) out): rounds half to even (0.5 -> 0, 1.5 -> 2, 2.5
// -> 2); integral types are unchanged.
func init() {
	register(arithKeepKernel("aten::round.out", unboxRoundOut, realTypes, math.RoundToEven, func(x int64) int64 { return x }))
}
