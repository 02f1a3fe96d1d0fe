package portable

import "math"

// aten::tanh.out(Tensor self, *, Tensor(a!) out): hyperbolic tangent. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::tanh.out", unboxTanhOut, math.Tanh)) }
