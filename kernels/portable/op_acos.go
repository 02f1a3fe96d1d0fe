package portable

import "math"

// aten::acos.out(Tensor self, *, Tensor(a!) out): the arccosine. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::acos.out", unboxAcosOut, math.Acos)) }
