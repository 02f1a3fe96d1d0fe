package portable

import "math"

// aten::sinh.out(Tensor self, *, Tensor(a!) out): the hyperbolic sine. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::sinh.out", unboxSinhOut, math.Sinh)) }
