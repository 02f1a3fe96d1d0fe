package portable

import "math"

// aten::acosh.out(Tensor self, *, Tensor(a!) out): the inverse hyperbolic cosine. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::acosh.out", unboxAcoshOut, math.Acosh)) }
