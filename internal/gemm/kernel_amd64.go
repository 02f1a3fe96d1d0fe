//go:build amd64 && !purego

package gemm

//go:generate go run gen_bias512.go
//go:generate go run gen_bias256.go

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX2 selects the assembly kernels, which need AVX2 and FMA3; useAVX512 the AVX-512F 14x32
// kernels (32 registers hold a 14x32 tile of accumulators, two B vectors and two broadcasts).
var (
	useAVX2   = cpuAVX2
	useAVX512 = cpuAVX512
)

// What the CPU has, whatever UseISA selected.
var (
	cpuAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	cpuAVX512 = cpuAVX2 && cpu.X86.HasAVX512F
)

// ISAs lists the kernel sets this build can run on this CPU, the default first: "avx512",
// "avx2" (each only where the CPU has it) and "go", the portable kernels.
func ISAs() []string {
	var s []string
	if cpuAVX512 {
		s = append(s, "avx512")
	}
	if cpuAVX2 {
		s = append(s, "avx2")
	}
	return append(s, "go")
}

// UseISA makes the kernels of isa (one of ISAs) the ones that run, so tests can take every
// path on one machine, and returns a function that restores the previous choice. Packed weights
// depend on the choice: pack after calling it. Not safe while kernels run.
func UseISA(isa string) (restore func(), err error) {
	saved := [...]any{useAVX2, useAVX512, biasMR, panelNR, rowKernels}
	restore = func() {
		useAVX2, useAVX512, biasMR, panelNR, rowKernels = saved[0].(bool), saved[1].(bool), saved[2].(int), saved[3].(int), saved[4].(bool)
	}
	switch {
	case isa == "avx512" && cpuAVX512:
		useAVX2, useAVX512 = true, true
	case isa == "avx2" && cpuAVX2:
		useAVX2, useAVX512 = true, false
	case isa == "go":
		useAVX2, useAVX512 = false, false
	default:
		return func() {}, fmt.Errorf("gemm: kernel set %q is not available here (%v)", isa, ISAs())
	}
	biasMR, panelNR, rowKernels = MR, NR, useAVX2
	if useAVX512 {
		biasMR, panelNR = 14, 32
	}
	return restore, nil
}

// biasMR is the row count of a full tile; panelNR the width PackB packs panels to.
var (
	biasMR  = map[bool]int{true: 14, false: MR}[useAVX512]
	panelNR = map[bool]int{true: 32, false: NR}[useAVX512]
)

// Tile buffers are sized for the largest tile any kernel here computes.
const (
	maxTileRows = 14
	maxNR       = 32
)

// rowKernels says a kernel exists for every row count up to biasMR (AVX-512: the generated
// kernelBias32xR and kernelBias16xR, run by biasKernel512; AVX2: kernelBias256xR, run by
// biasKernel256), so short row tiles run their own rows, not a zero-padded full tile.
var rowKernels = useAVX2

//go:noescape
func clamp8(d *float32, n int, lo float32, hi float32)

//go:noescape
func mulAdd8(acc *float32, x *float32, w *float32, n int)

// microkernelBias: c[mr×nr, stride ldc] = clamp(bias[nr] + a·panel, lo, hi); a holds mr rows of
// k values at stride lda, panel k×nr values (nr is 32 or 16). mr is biasMR, or fewer where
// rowKernels. The assembly kernels also prefetch k cache lines from pf on into L2, one per k step
// (pf is an address, never dereferenced: a prefetch does not fault).
func microkernelBias(mr, nr int, a []float32, lda int, panel, bias []float32, c []float32, ldc int, k int, pf uintptr, lo, hi float32) {
	_ = a[(mr-1)*lda+k-1]
	_ = panel[k*nr-1]
	_ = bias[nr-1]
	_ = c[(mr-1)*ldc+nr-1]
	switch {
	case useAVX512 && (nr == 32 || nr == NR):
		biasKernel512(nr, mr, &a[0], lda, &panel[0], &bias[0], &c[0], ldc, k, pf, lo, hi)
	case useAVX2 && nr == NR && mr <= MR:
		biasKernel256(mr, &a[0], lda, &panel[0], &bias[0], 0, &c[0], ldc, k, 1, pf, lo, hi)
	default:
		kernelBiasGo(mr, nr, a, lda, panel, bias, c, ldc, k, lo, hi)
	}
}

// panelsVector runs the AVX2 kernel for one row tile of mr rows over np consecutive full panels
// nr (16) columns wide in one call: c[mr×np·nr] = clamp(bias + a·panels), panel j's bias at
// bias[j·bstride:] (bstride 0: one bias for all). Each panel's loop prefetches the next panel's
// lines into L2. It reports false, doing nothing, for other kernel sets.
func panelsVector(mr, nr int, a []float32, lda int, panels, bias []float32, bstride int, c []float32, ldc, k, np int, lo, hi float32) bool {
	if !useAVX2 || useAVX512 || nr != NR || mr < 1 || mr > MR || np < 1 || k < 1 {
		return false
	}
	_ = a[(mr-1)*lda+k-1]
	_ = panels[np*k*NR-1]
	_ = bias[(np-1)*bstride+NR-1]
	_ = c[(mr-1)*ldc+np*NR-1]
	pf := uintptr(unsafe.Pointer(&panels[0])) + uintptr(k*NR*4)
	biasKernel256(mr, &a[0], lda, &panels[0], &bias[0], bstride, &c[0], ldc, k, np, pf, lo, hi)
	return true
}

// MulAdd computes acc[i] += x[i]*w[i] over len(acc) elements (x and w at least as long).
func MulAdd(acc, x, w []float32) {
	n := len(acc)
	x, w = x[:n], w[:n]
	v := n &^ 7
	if useAVX2 && v > 0 {
		mulAdd8(&acc[0], &x[0], &w[0], v)
	} else {
		v = 0
	}
	for i := v; i < n; i++ {
		acc[i] += x[i] * w[i]
	}
}

// Clamp sets every element to min(max(x, lo), hi), branch-free; a NaN stays NaN (XNNPACK's
// clamp, see clampGo).
func Clamp(d []float32, lo, hi float32) {
	v := len(d) &^ 7
	if useAVX2 && v > 0 {
		clamp8(&d[0], v, lo, hi)
	} else {
		v = 0
	}
	clampGo(d[v:], lo, hi)
}

//go:noescape
func hswish8(dst *float32, src *float32, n int)

//go:noescape
func sigmoid8(dst *float32, src *float32, n int)

// Sigmoid sets dst[i] = 1/(1+exp(-src[i])), XNNPACK's algorithm (see sigmoidGo; dst may be src;
// src at least as long as dst).
func Sigmoid(dst, src []float32) {
	src = src[:len(dst)]
	v := len(dst) &^ 7
	if useAVX2 && v > 0 {
		sigmoid8(&dst[0], &src[0], v)
	} else {
		v = 0
	}
	sigmoidGo(dst[v:], src[v:])
}

//go:noescape
func expmm8(dst *float32, src *float32, n int, max float32) float32

// ExpMinusMax sets dst[i] = exp(src[i] - max) and returns their sum: softmax's middle pass, as
// XNNPACK computes it (see expMinusMaxGo; dst may be src).
func ExpMinusMax(dst, src []float32, max float32) float32 {
	src = src[:len(dst)]
	v := len(dst) &^ 7
	var sum float32
	if useAVX2 && v > 0 {
		sum = expmm8(&dst[0], &src[0], v, max)
	} else {
		v = 0
	}
	return sum + expMinusMaxGo(dst[v:], src[v:], max)
}

//go:noescape
func gelu8(dst *float32, src *float32, n int)

// Gelu sets dst[i] = x·(1 + erf(x/√2))/2, XNNPACK's rational approximation (see geluGo; dst may
// be src; src at least as long as dst).
func Gelu(dst, src []float32) {
	src = src[:len(dst)]
	v := len(dst) &^ 7
	if useAVX2 && v > 0 {
		gelu8(&dst[0], &src[0], v)
	} else {
		v = 0
	}
	geluGo(dst[v:], src[v:])
}

//go:noescape
func vmul8(dst *float32, a *float32, b *float32, n int)

//go:noescape
func vadd8(dst *float32, a *float32, b *float32, n int)

// Hardswish sets dst[i] = x·min(max(x/6 + 1/2, 0), 1) for x = src[i], XNNPACK's formula (see
// hardswishGo; dst may be src; src at least as long as dst).
func Hardswish(dst, src []float32) {
	src = src[:len(dst)]
	v := len(dst) &^ 7
	if useAVX2 && v > 0 {
		hswish8(&dst[0], &src[0], v)
	} else {
		v = 0
	}
	hardswishGo(dst[v:], src[v:])
}

// Mul sets dst[i] = a[i]·b[i] (dst may alias a or b; a and b at least as long as dst).
func Mul(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	v := len(dst) &^ 7
	if useAVX2 && v > 0 {
		vmul8(&dst[0], &a[0], &b[0], v)
	} else {
		v = 0
	}
	mulGo(dst[v:], a[v:], b[v:])
}

// Add sets dst[i] = a[i]+b[i] (dst may alias a or b; a and b at least as long as dst).
func Add(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	v := len(dst) &^ 7
	if useAVX2 && v > 0 {
		vadd8(&dst[0], &a[0], &b[0], v)
	} else {
		v = 0
	}
	addGo(dst[v:], a[v:], b[v:])
}

//go:noescape
func dwConv512(out *float32, x *float32, zero *float32, offs *int32, npix int, ntaps int, w *float32, wstride int, bias *float32, n int, lo float32, hi float32)

//go:noescape
func dwConv256(out *float32, x *float32, zero *float32, offs *int32, npix int, ntaps int, w *float32, wstride int, bias *float32, n int, lo float32, hi float32)

// depthwiseVector runs the assembly depthwise kernel (operands already checked by
// DWTaps.Depthwise); it reports whether it did.
func depthwiseVector(out, x, zero []float32, offs []int32, npix, ntaps int, w []float32, wstride int, bias []float32, n int, lo, hi float32) bool {
	if npix == 0 || len(x) == 0 {
		return false
	}
	switch {
	case useAVX512:
		dwConv512(&out[0], &x[0], &zero[0], &offs[0], npix, ntaps, &w[0], wstride, &bias[0], n, lo, hi)
	case useAVX2:
		dwConv256(&out[0], &x[0], &zero[0], &offs[0], npix, ntaps, &w[0], wstride, &bias[0], n, lo, hi)
	default:
		return false
	}
	return true
}

//go:noescape
func maxPool9x8(dst *float32, taps *[9]*float32, n int, first bool, lo float32, hi float32)

// MaxPool9 folds nine taps of a max-pooling window into dst (every tap at least as long) as
// XNNPACK's 9-tap max-pooling microkernel does, NaN for NaN: see maxPool9Go.
func MaxPool9(dst []float32, taps *[9][]float32, first bool, lo, hi float32) {
	n := len(dst)
	v := n &^ 7
	if useAVX2 && v > 0 {
		var p [9]*float32
		for i := range taps {
			p[i] = &taps[i][:n][0]
		}
		maxPool9x8(&dst[0], &p, v, first, lo, hi)
	} else {
		v = 0
	}
	if v < n {
		var tail [9][]float32
		for i := range taps {
			tail[i] = taps[i][v:n]
		}
		maxPool9Go(dst[v:], &tail, first, lo, hi)
	}
}

//go:noescape
func stridedCopy512(dst *float32, dstStride int, src *float32, srcStride int, count int, run int)

//go:noescape
func stridedCopy256(dst *float32, dstStride int, src *float32, srcStride int, count int, run int)

// stridedCopyVector runs the AVX-512 or AVX2 strided copy (operands already checked); it reports
// whether it did.
func stridedCopyVector(dst []float32, dstStride int, src []float32, srcStride int, count, run int) bool {
	switch {
	case useAVX512:
		stridedCopy512(&dst[0], dstStride, &src[0], srcStride, count, run)
	case useAVX2:
		stridedCopy256(&dst[0], dstStride, &src[0], srcStride, count, run)
	default:
		return false
	}
	return true
}

//go:generate go run gen_dw512.go
//go:generate go run gen_dw256.go

//go:noescape
func dwDirect3x3(out *float32, in *float32, npix int, instep int, rowstride int, c int, w *float32, bias *float32, lo float32, hi float32)

//go:noescape
func dwDirect5x5(out *float32, in *float32, npix int, instep int, rowstride int, c int, w *float32, bias *float32, lo float32, hi float32)

//go:noescape
func dwDirect3x3256(out *float32, in *float32, npix int, instep int, rowstride int, c int, w *float32, bias *float32, lo float32, hi float32)

//go:noescape
func dwDirect5x5256(out *float32, in *float32, npix int, instep int, rowstride int, c int, w *float32, bias *float32, lo float32, hi float32)

// dwDirectVector runs the register-weights kernel for a k×k window (3 or 5) when there is one
// (operands already checked); it reports whether it did.
func dwDirectVector(k int, out, in []float32, npix, instep, rowstride, c int, w, bias []float32, lo, hi float32) bool {
	switch {
	case useAVX512 && k == 3:
		dwDirect3x3(&out[0], &in[0], npix, instep, rowstride, c, &w[0], &bias[0], lo, hi)
	case useAVX512 && k == 5:
		dwDirect5x5(&out[0], &in[0], npix, instep, rowstride, c, &w[0], &bias[0], lo, hi)
	case useAVX2 && k == 3:
		dwDirect3x3256(&out[0], &in[0], npix, instep, rowstride, c, &w[0], &bias[0], lo, hi)
	case useAVX2 && k == 5:
		dwDirect5x5256(&out[0], &in[0], npix, instep, rowstride, c, &w[0], &bias[0], lo, hi)
	default:
		return false
	}
	return true
}

//go:noescape
func sumRows512(acc *float32, x *float32, rows int, stride int, n int)

//go:noescape
func sumRows256(acc *float32, x *float32, rows int, stride int, n int)

// sumRowsVector runs the AVX-512 or AVX2 column sum (operands already checked; both add in the
// same order); it reports whether it did.
func sumRowsVector(acc, x []float32, rows, stride int) bool {
	switch {
	case useAVX512:
		sumRows512(&acc[0], &x[0], rows, stride, len(acc))
	case useAVX2:
		sumRows256(&acc[0], &x[0], rows, stride, len(acc))
	default:
		return false
	}
	return true
}

//go:noescape
func transpose8x8(dst *float32, ldd int, src *float32, lds int, rows int, cols int)

// transposeVector runs the AVX2 8×8 block transpose over rows×cols (multiples of 8, operands
// checked), in 64×64 tiles so a tile's source and destination lines stay in L1; it reports
// whether it did.
func transposeVector(dst []float32, ldd int, src []float32, lds int, rows, cols int) bool {
	if !useAVX2 {
		return false
	}
	const tile = 64
	for r0 := 0; r0 < rows; r0 += tile {
		nr := min(tile, rows-r0)
		for c0 := 0; c0 < cols; c0 += tile {
			transpose8x8(&dst[c0*ldd+r0], ldd, &src[r0*lds+c0], lds, nr, min(tile, cols-c0))
		}
	}
	return true
}

//go:noescape
func igemm8x8(dst *float32, ld int, x *float32, zero *float32, offs *int64, nt int, gin int, w *float32, lo float32, hi float32)

// groupVector runs the AVX2 8×8 grouped-convolution block (operands checked by GroupConv: every
// offset plus gin lies in x, zero holds gin values); it reports whether it did.
func groupVector(dst []float32, ld int, x, zero []float32, offs []int64, nt, gin int, w []float32, lo, hi float32) bool {
	if !useAVX2 || len(x) < gin || len(zero) < gin || len(offs) < nt*groupMR || len(w) < (1+nt*gin)*groupNR || len(dst) < (groupMR-1)*ld+groupNR {
		return false
	}
	igemm8x8(&dst[0], ld, &x[0], &zero[0], &offs[0], nt, gin, &w[0], lo, hi)
	return true
}

//go:noescape
func erf512(dst *float32, src *float32, n int, tab *float64)

//go:noescape
func erf256(dst *float32, src *float32, n int, tab *float64)

// erfVector runs Erf's AVX-512 or AVX2 kernel (the same floats) over the longest multiple of 8
// and returns how many values it did (0 without either).
func erfVector(dst, src []float32) int {
	n := len(dst) &^ 7
	if !useAVX2 || n == 0 || len(src) < n {
		return 0
	}
	if useAVX512 {
		erf512(&dst[0], &src[0], n, &erfTable[0][0])
	} else {
		erf256(&dst[0], &src[0], n, &erfTable[0][0])
	}
	return n
}
