package portable

// aten::reciprocal.out(Tensor self, *, Tensor(a!) out): 1/self (inf for 0). Integral and bool
// inputs compute in float32; out must be floating.
func init() {
	register(arithFloatKernel("aten::reciprocal.out", unboxReciprocalOut, func(x float64) float64 { return 1 / x }))
}
