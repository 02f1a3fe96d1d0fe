package gemm

// peakKernel is a register-only FMA loop: run(n) does n iterations of flops floating-point ops.
type peakKernel struct {
	name  string
	flops int
	run   func(n int)
}
