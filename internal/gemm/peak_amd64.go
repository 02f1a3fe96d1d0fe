//go:build amd64 && !purego

package gemm

//go:noescape
func peakFMA512(n int)

//go:noescape
func peakFMA256(n int)

// peakKernels are the register-only FMA loops this CPU can run, with the FLOPs one iteration does
// (for BenchmarkPeakFMA: the ceiling the GEMM benchmarks' GFLOP/s are read against).
func peakKernels() []peakKernel {
	var ks []peakKernel
	if useAVX512 {
		ks = append(ks, peakKernel{"zmm", 16 * 16 * 2, peakFMA512})
	}
	if useAVX2 {
		ks = append(ks, peakKernel{"ymm", 12 * 8 * 2, peakFMA256})
	}
	return ks
}
