package portable

import "math"

// aten::atanh.out(Tensor self, *, Tensor(a!) out): the inverse hyperbolic tangent. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::atanh.out", unboxAtanhOut, math.Atanh)) }
