package portable

import "math"

// aten::exp.out(Tensor self, *, Tensor(a!) out): e^self. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::exp.out", unboxExpOut, math.Exp)) }
