package portable

import "math"

// aten::floor.out(Tensor self, *, Tensor(a!) out): integral types are unchanged.
func init() {
	register(arithKeepKernel("aten::floor.out", unboxFloorOut, realTypes, math.Floor, func(x int64) int64 { return x }))
}
