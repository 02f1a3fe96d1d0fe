//go:build amd64 && !purego

package gemm

import (
	"math/rand/v2"
	"testing"
)

// TestBiasKernelSets runs the bias checks on every kernel set the CPU has (AVX-512's 14x32 and
// 14x16 row kernels, AVX2's 1-6 row 16-column kernels, the portable one), and once more on the
// AVX2 full-tile kernel alone over zero-padded short tiles (rowKernels off), the path a set
// without row kernels would take.
func TestBiasKernelSets(t *testing.T) {
	for _, isa := range ISAs() {
		t.Run(isa, func(t *testing.T) {
			restore, err := UseISA(isa)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			checkGemmBias(t, rand.New(rand.NewPCG(5, 6)))
			if isa == "avx2" {
				rowKernels = false
				checkGemmBias(t, rand.New(rand.NewPCG(7, 8)))
			}
		})
	}
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
