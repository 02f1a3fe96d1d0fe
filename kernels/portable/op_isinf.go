package portable

import "math"

// aten::isinf.out(Tensor self, *, Tensor(a!) out): true where self is +Inf or -Inf; out must be
// Bool.
func init() {
	register(compareClassifyKernel("aten::isinf.out", unboxIsinfOut, func(x float64) bool { return math.IsInf(x, 0) }))
}
