//go:build !amd64 || purego

package gemm

import "fmt"

// ISAs lists the kernel sets this build can run: here only "go", the portable kernels.
func ISAs() []string { return []string{"go"} }

// UseISA selects a kernel set (only "go" here) and returns a function that restores the previous
// choice.
func UseISA(isa string) (restore func(), err error) {
	if isa != "go" {
		return func() {}, fmt.Errorf("gemm: kernel set %q is not available here (%v)", isa, ISAs())
	}
	return func() {}, nil
}

// MulAdd computes acc[i] += x[i]*w[i] over len(acc) elements (x and w at least as long).
func MulAdd(acc, x, w []float32) {
	x, w = x[:len(acc)], w[:len(acc)]
	for i := range acc {
		acc[i] += x[i] * w[i]
	}
}

// biasMR is the row count of a full tile; panelNR the width PackB packs panels to.
var (
	biasMR  = MR
	panelNR = NR
)

// Tile buffers are sized for the largest tile any kernel here computes.
const (
	maxTileRows = MR
	maxNR       = NR
)

// rowKernels: the portable kernel runs any row count, so short tiles need no padded copy.
const rowKernels = true

// microkernelBias is the portable bias-and-clamp kernel over mr rows.
func microkernelBias(mr, nr int, a []float32, lda int, panel, bias []float32, c []float32, ldc int, k int, pf uintptr, lo, hi float32) {
	kernelBiasGo(mr, nr, a, lda, panel, bias, c, ldc, k, lo, hi)
}

// Clamp sets every element to min(max(x, lo), hi); a NaN stays NaN (XNNPACK's clamp, see
// clampGo).
func Clamp(d []float32, lo, hi float32) { clampGo(d, lo, hi) }

// Hardswish sets dst[i] = x·min(max(x/6 + 1/2, 0), 1) for x = src[i], XNNPACK's formula (see
// hardswishGo; dst may be src).
func Hardswish(dst, src []float32) { hardswishGo(dst, src) }

// Sigmoid sets dst[i] = 1/(1+exp(-src[i])) (see sigmoidGo; dst may be src).
func Sigmoid(dst, src []float32) { sigmoidGo(dst, src) }

// Mul sets dst[i] = a[i]·b[i] (dst may alias a or b).
func Mul(dst, a, b []float32) { mulGo(dst, a, b) }

// Add sets dst[i] = a[i]+b[i] (dst may alias a or b).
func Add(dst, a, b []float32) { addGo(dst, a, b) }

// depthwiseVector has no vector kernel here.
func depthwiseVector(out, x, zero []float32, offs []int32, npix, ntaps int, w []float32, wstride int, bias []float32, n int, lo, hi float32) bool {
	return false
}

// MaxPool9 folds nine taps of a max-pooling window into dst (every tap at least as long) as
// XNNPACK's 9-tap max-pooling microkernel does, NaN for NaN: see maxPool9Go.
func MaxPool9(dst []float32, taps *[9][]float32, first bool, lo, hi float32) {
	maxPool9Go(dst, taps, first, lo, hi)
}

// stridedCopyVector has no vector kernel here.
func stridedCopyVector(dst []float32, dstStride int, src []float32, srcStride int, count, run int) bool {
	return false
}

// dwDirectVector has no vector kernel here.
func dwDirectVector(k int, out, in []float32, npix, instep, rowstride, c int, w, bias []float32, lo, hi float32) bool {
	return false
}

// sumRowsVector has no vector kernel here.
func sumRowsVector(acc, x []float32, rows, stride int) bool { return false }

// Gelu sets dst[i] = x·(1 + erf(x/√2))/2 (see geluGo; dst may be src).
func Gelu(dst, src []float32) { geluGo(dst, src) }

// ExpMinusMax sets dst[i] = exp(src[i] - max) and returns their sum (see expMinusMaxGo).
func ExpMinusMax(dst, src []float32, max float32) float32 { return expMinusMaxGo(dst, src, max) }

// transposeVector has no vector kernel here.
func transposeVector(dst []float32, ldd int, src []float32, lds int, rows, cols int) bool {
	return false
}

// groupVector has no vector kernel here.
func groupVector(dst []float32, ld int, x, zero []float32, offs []int64, nt, gin int, w []float32, lo, hi float32) bool {
	return false
}

// panelsVector has no vector kernel here.
func panelsVector(mr, nr int, a []float32, lda int, panels, bias []float32, bstride int, c []float32, ldc, k, np int, lo, hi float32) bool {
	return false
}

// erfVector has no vector kernel here.
func erfVector(dst, src []float32) int { return 0 }
