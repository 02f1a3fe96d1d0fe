//go:build !amd64 || purego

package gemm

// peakKernels: no assembly FMA loop on this architecture or build.
func peakKernels() []peakKernel { return nil }
