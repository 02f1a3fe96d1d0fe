package portable

import "math"

// aten::sqrt.out(Tensor self, *, Tensor(a!) out): square root (NaN below 0). Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::sqrt.out", unboxSqrtOut, math.Sqrt)) }
