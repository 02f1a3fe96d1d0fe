package portable

// aten::eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) and
// aten::eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out): self == other, compared in
// the promoted type of the inputs; out (usually Bool) receives 0 or 1.
func init() {
	register(compareKernels(binaryPair{"aten::eq.Tensor_out", unboxEqTensorOut, "aten::eq.Scalar_out", unboxEqScalarOut}, comparePred{
		f:   func(x, y float64) bool { return x == y },
		i:   func(x, y int64) bool { return x == y },
		f32: func(x, y float32) bool { return x == y },
	})...)
}
