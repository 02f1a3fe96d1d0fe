package portable

// aten::_conj_physical.out(Tensor self, *, Tensor(a!) out): the complex conjugate, which for the
// real and bool dtypes etgo's tensors have is a copy (complex dtypes are refused at load).
func init() { register(copyKernel("aten::_conj_physical.out", unboxConjPhysicalOut)) }
