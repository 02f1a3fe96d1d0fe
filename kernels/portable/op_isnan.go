package portable

import "math"

// aten::isnan.out(Tensor self, *, Tensor(a!) out): true where self is NaN; out must be Bool.
func init() {
	register(compareClassifyKernel("aten::isnan.out", unboxIsnanOut, math.IsNaN))
}
