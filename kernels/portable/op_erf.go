package portable

import "math"

// aten::erf.out(Tensor self, *, Tensor(a!) out): error function. Integral and bool inputs compute in
// float32; out must be floating.
func init() { register(arithFloatKernel("aten::erf.out", unboxErfOut, math.Erf)) }
