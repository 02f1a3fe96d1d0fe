package portable

import "math"

// aten::cos.out(Tensor self, *, Tensor(a!) out): cosine. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::cos.out", unboxCosOut, math.Cos)) }
