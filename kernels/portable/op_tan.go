package portable

import "math"

// aten::tan.out(Tensor self, *, Tensor(a!) out): tangent. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::tan.out", unboxTanOut, math.Tan)) }
