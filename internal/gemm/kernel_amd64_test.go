//go:build amd64 && !purego

package gemm

import (
	"math/rand/v2"
	"testing"
)

// TestAVX2BiasKernel runs the bias checks on the 6-row AVX2 kernel on machines that would
// otherwise take the AVX-512 one, so both assembly kernels are tested where the CPU allows.
func TestAVX2BiasKernel(t *testing.T) {
	if !useAVX2 {
		t.Skip("this CPU has no AVX2/FMA: only the portable kernel runs here, and TestPackedAgainstNaive covers it")
	}
	saved512, savedMR, savedRows, savedNR := useAVX512, biasMR, rowKernels, panelNR
	defer func() { useAVX512, biasMR, rowKernels, panelNR = saved512, savedMR, savedRows, savedNR }()
	useAVX512, biasMR, rowKernels, panelNR = false, MR, false, NR
	checkGemmBias(t, rand.New(rand.NewPCG(5, 6)))
}

// TestAVX2Depthwise runs the depthwise checks on the AVX2 kernel on AVX-512 machines too.
func TestAVX2Depthwise(t *testing.T) {
	if !useAVX2 {
		t.Skip("this CPU has no AVX2/FMA: TestDWTaps covers the portable kernel")
	}
	saved := useAVX512
	defer func() { useAVX512 = saved }()
	useAVX512 = false
	checkDWTaps(t)
}
