package portable

import "math"

// aten::log10.out(Tensor self, *, Tensor(a!) out): base-10 logarithm. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::log10.out", unboxLog10Out, math.Log10)) }
