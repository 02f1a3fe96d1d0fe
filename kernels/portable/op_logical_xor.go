package portable

// aten::logical_xor.out(Tensor self, Tensor other, *, Tensor(a!) out): the operands read as booleans
// (nonzero and NaN are true), broadcast; out of any type receives 0 or 1.
func init() {
	register(compareLogicalKernel("aten::logical_xor.out", unboxLogicalXorOut, func(x, y bool) bool { return x != y }))
}
