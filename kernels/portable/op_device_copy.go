package portable

// et_copy::_h2d_copy.out(Tensor self, *, Tensor(a!) out) and et_copy::_d2h_copy.out: the copies
// ExecuTorch inserts between host memory and a device's. etgo's tensors all live in host memory,
// so both are plain copies.
func init() {
	register(copyKernel("et_copy::_h2d_copy.out", unboxH2dCopyOut), copyKernel("et_copy::_d2h_copy.out", unboxD2hCopyOut))
}
