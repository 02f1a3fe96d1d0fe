package portable

import "math"

// aten::log.out(Tensor self, *, Tensor(a!) out): natural logarithm. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::log.out", unboxLogOut, math.Log)) }
