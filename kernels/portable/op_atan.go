package portable

import "math"

// aten::atan.out(Tensor self, *, Tensor(a!) out): arctangent. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::atan.out", unboxAtanOut, math.Atan)) }
