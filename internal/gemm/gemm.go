// Package gemm holds the numeric kernels of the XNNPACK backend and the portable kernels: the
// blocked scalar matrix multiply (Gemm), the packed GEMM with fused bias and clamp (PackedB,
// AVX-512F 14x32 and AVX2 6x16 Go-assembly microkernels), depthwise convolution through an
// indirection table or, for interior windows, with weights held in registers (DWTaps), and vector
// elementwise helpers. Every assembly kernel has a pure-Go fallback, used off amd64, on CPUs
// without the needed features and under the purego build tag; the tests compare both against
// direct formulas. BenchmarkPeakFMA measures the core's FMA peak to read the GEMM benchmarks'
// GFLOP/s against.
package gemm

// Num is the element types Gemm computes with.
type Num interface {
	~float32 | ~float64 | ~int64
}

// Blocking of Gemm: a panel of BlockK rows by BlockN columns of b (128 KiB
// of float32) stays in L2 while every row of a passes over it, and a row segment of c (2 KiB)
// stays in L1 while it accumulates BlockK products. (Measured on x86-64: the scalar
// inner loop runs near the FP issue limit with these; larger or smaller blocks are no faster.)
const (
	BlockN = 512
	BlockK = 64
)

// Gemm accumulates c += a·b for an m×k matrix a (row stride lda), a k×n matrix b (row
// stride ldb) and an m×n matrix c (row stride ldc). The loops run i-k-j, so the innermost loop
// streams a row of b into a row of c, four rows of b at a time.
func Gemm[T Num](m, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int) {
	if m == 0 || n == 0 || k == 0 {
		return
	}
	for j0 := 0; j0 < n; j0 += BlockN {
		j1 := min(j0+BlockN, n)
		nb := j1 - j0
		for k0 := 0; k0 < k; k0 += BlockK {
			k1 := min(k0+BlockK, k)
			for i := 0; i < m; i++ {
				arow := a[i*lda : i*lda+k]
				crow := c[i*ldc+j0 : i*ldc+j1]
				p := k0
				for ; p+4 <= k1; p += 4 {
					a0, a1, a2, a3 := arow[p], arow[p+1], arow[p+2], arow[p+3]
					o := p*ldb + j0
					b0 := b[o : o+nb]
					b1 := b[o+ldb : o+ldb+nb]
					b2 := b[o+2*ldb : o+2*ldb+nb]
					b3 := b[o+3*ldb : o+3*ldb+nb]
					b0, b1, b2, b3 = b0[:len(crow)], b1[:len(crow)], b2[:len(crow)], b3[:len(crow)]
					for j := range crow {
						crow[j] += (a0*b0[j] + a1*b1[j]) + (a2*b2[j] + a3*b3[j])
					}
				}
				for ; p < k1; p++ {
					a0 := arow[p]
					b0 := b[p*ldb+j0 : p*ldb+j1]
					b0 = b0[:len(crow)]
					for j := range crow {
						crow[j] += a0 * b0[j]
					}
				}
			}
		}
	}
}
