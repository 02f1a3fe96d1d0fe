//go:build amd64 && !purego

package gemm

import "golang.org/x/sys/cpu"

// useAVX2 selects the assembly microkernel, which needs AVX2 and FMA3.
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func kernel6x16(a *float32, lda int, b *float32, c *float32, k int)

// microkernel runs the AVX2 kernel; the caller (Gemm) guarantees a holds MR rows of k values at
// stride lda, panel k×NR values and tile MR×NR.
func microkernel(a []float32, lda int, panel []float32, tile []float32, k int) {
	if !useAVX2 {
		kernelGo(a, lda, panel, tile, k)
		return
	}
	_ = a[(MR-1)*lda+k-1]
	_ = panel[k*NR-1]
	_ = tile[MR*NR-1]
	kernel6x16(&a[0], lda, &panel[0], &tile[0], k)
}
