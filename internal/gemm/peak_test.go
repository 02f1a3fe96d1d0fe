package gemm

import (
	"runtime"
	"testing"
)

// BenchmarkPeakFMA measures one core's fp32 FMA peak with register-only loops (zmm for AVX-512F,
// ymm for AVX2/FMA3): the ceiling the GEMM benchmarks' GFLOP/s are read against, measured in the
// same run because a VM's clock varies.
func BenchmarkPeakFMA(b *testing.B) {
	ks := peakKernels()
	if len(ks) == 0 {
		b.Skip("no assembly FMA loop for this CPU or build (purego / non-amd64 / no FMA)")
	}
	for _, k := range ks {
		b.Run(k.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			const iters = 1 << 16
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k.run(iters)
			}
			reportGFLOPs(b, float64(k.flops)*iters)
		})
	}
}

// reportGFLOPs reports flopsPerOp/(ns per op) as GFLOP/s.
func reportGFLOPs(b *testing.B, flopsPerOp float64) {
	if ns := float64(b.Elapsed().Nanoseconds()); ns > 0 {
		b.ReportMetric(flopsPerOp*float64(b.N)/ns, "GFLOP/s")
	}
}

// TestPeakKernelsRun checks the peak loops execute (they compute nothing observable).
func TestPeakKernelsRun(t *testing.T) {
	for _, k := range peakKernels() {
		k.run(0)
		k.run(3)
	}
}
