package portable

import "math"

// aten::log1p.out(Tensor self, *, Tensor(a!) out): log(1 + self), accurate near 0. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::log1p.out", unboxLog1pOut, math.Log1p)) }
