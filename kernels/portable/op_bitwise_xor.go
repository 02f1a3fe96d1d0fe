package portable

// aten::bitwise_xor.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) and
// aten::bitwise_xor.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out): self ^ other for
// integral and Bool operands, in their promoted type; floating operands are an error.
func init() {
	register(compareBitwiseKernels(binaryPair{"aten::bitwise_xor.Tensor_out", unboxBitwiseXorTensorOut, "aten::bitwise_xor.Scalar_out", unboxBitwiseXorScalarOut}, func(x, y int64) int64 { return x ^ y })...)
}
