package portable

import "math"

// aten::expm1.out(Tensor self, *, Tensor(a!) out): e^self - 1, accurate near 0. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::expm1.out", unboxExpm1Out, math.Expm1)) }
