package portable

// aten::bitwise_or.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) and
// aten::bitwise_or.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out): self | other for
// integral and Bool operands, in their promoted type; floating operands are an error.
func init() {
	register(compareBitwiseKernels(binaryPair{"aten::bitwise_or.Tensor_out", unboxBitwiseOrTensorOut, "aten::bitwise_or.Scalar_out", unboxBitwiseOrScalarOut}, func(x, y int64) int64 { return x | y })...)
}
