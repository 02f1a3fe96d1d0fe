package portable

import "math"

// aten::sin.out(Tensor self, *, Tensor(a!) out): sine. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::sin.out", unboxSinOut, math.Sin)) }
