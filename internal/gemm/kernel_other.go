//go:build !amd64 || purego

package gemm

// microkernel is the portable kernel on machines (or builds) without the assembly one.
func microkernel(a []float32, lda int, panel []float32, tile []float32, k int) {
	kernelGo(a, lda, panel, tile, k)
}
