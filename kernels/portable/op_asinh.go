package portable

import "math"

// aten::asinh.out(Tensor self, *, Tensor(a!) out): the inverse hyperbolic sine. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::asinh.out", unboxAsinhOut, math.Asinh)) }
