package portable

// aten::detach_copy.out(Tensor self, *, Tensor(a!) out): a copy of self (no autograd in a
// program, so the copy is all that is left of the operator).
func init() { register(copyKernel("aten::detach_copy.out", unboxDetachCopyOut)) }
