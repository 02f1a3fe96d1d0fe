package portable

import "math"

// aten::log2.out(Tensor self, *, Tensor(a!) out): base-2 logarithm. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::log2.out", unboxLog2Out, math.Log2)) }
