package portable

import "math"

// aten::asin.out(Tensor self, *, Tensor(a!) out): the arcsine. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::asin.out", unboxAsinOut, math.Asin)) }
