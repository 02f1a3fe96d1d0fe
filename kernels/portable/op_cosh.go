package portable

import "math"

// aten::cosh.out(Tensor self, *, Tensor(a!) out): the hyperbolic cosine. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::cosh.out", unboxCoshOut, math.Cosh)) }
