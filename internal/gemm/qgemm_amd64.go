//go:build amd64 && !purego

package gemm

//go:generate go run gen_qgemm.go
//go:generate go run gen_qgemm_avx2.go

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// cpuVNNI: the AVX-512 int8 kernels need AVX-512F, BW (byte masks and conversions) and VNNI.
var cpuVNNI = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VNNI

// cpuI8AVX2: the AVX2 int8 kernels (XNNPACK's avx2 madd design: codes widened to int16 and
// multiplied pairwise with VPMADDWD, exact in int32) need AVX2 only; they serve CPUs without
// AVX-512 VNNI, which would otherwise run the Go loops.
var cpuI8AVX2 = cpu.X86.HasAVX2

// useVNNI selects the AVX-512 VNNI int8 kernels, useI8AVX2 the AVX2 ones (the *avx2* files;
// qb4Tile and groupSums have none yet and take the Go loops). At most one is true.
var (
	useVNNI   = cpuVNNI
	useI8AVX2 = cpuI8AVX2 && !cpuVNNI
)

// Int8ISAs lists the int8 kernel sets this build can run on this CPU, the default first:
// "avx512vnni" and "avx2" where the CPU has them, and "go", the portable loops.
func Int8ISAs() []string {
	var isas []string
	if cpuVNNI {
		isas = append(isas, "avx512vnni")
	}
	if cpuI8AVX2 {
		isas = append(isas, "avx2")
	}
	return append(isas, "go")
}

// UseInt8ISA makes the int8 kernels of isa (one of Int8ISAs) the ones that run, so tests can
// take every path on one machine, and returns a function that restores the previous choice.
// Packed filters do not depend on it. Not safe while kernels run.
func UseInt8ISA(isa string) (restore func(), err error) {
	savedVNNI, savedAVX2 := useVNNI, useI8AVX2
	switch {
	case isa == "avx512vnni" && cpuVNNI:
		useVNNI, useI8AVX2 = true, false
	case isa == "avx2" && cpuI8AVX2:
		useVNNI, useI8AVX2 = false, true
	case isa == "go":
		useVNNI, useI8AVX2 = false, false
	default:
		return func() {}, fmt.Errorf("gemm: int8 kernel set %q is not available here (%v)", isa, Int8ISAs())
	}
	return func() { useVNNI, useI8AVX2 = savedVNNI, savedAVX2 }, nil
}

func qs8Tile(p *QPacked, q *QS8, a []int8, lda int, c []int8, ldc, rows, pn, v int) {
	if useI8AVX2 {
		qs8TileAVX2(p, q, a, lda, c, ldc, rows, pn, v)
		return
	}
	if !useVNNI {
		qs8TileGo(p, q, a, lda, c, ldc, rows, pn, v)
		return
	}
	qs8Kernels[rows][v](&a[0], lda, &p.w[pn*p.kg*64], p.kg*64, p.kg, &q.bias[pn*QPanel], &q.scale[pn*QPanel],
		unsafe.SliceData(c), ldc, q.lo, q.hi, q.zp, p.lastMask(pn+v-1))
}

func accTile(p *QPacked, a []int8, lda int, bias []int32, c []int32, ldc, rows, pn, v int) {
	if useI8AVX2 {
		accTileAVX2(p, a, lda, bias, c, ldc, rows, pn, v)
		return
	}
	if !useVNNI {
		accTileGo(p, a, lda, bias, c, ldc, rows, pn, v)
		return
	}
	qaccKernels[rows][v](&a[0], lda, &p.w[pn*p.kg*64], p.kg*64, p.kg, &bias[0], unsafe.SliceData(c), ldc, p.lastMask(pn+v-1))
}

//go:noescape
func dwq8(x *int8, zrow *int8, offs *int32, npix int, ntaps int, w *int32, bias *int32, scale *float32, out *int8, ldo int, c int, lo float32, hi float32, zp int32, ptrs *uintptr)

func dwTile(q *QDW, x []int8, offs []int32, npix int, out []int8, ldo int) {
	if useI8AVX2 {
		dwTileAVX2(q, x, offs, npix, out, ldo)
		return
	}
	if !useVNNI {
		dwTileGo(q, x, offs, npix, out, ldo)
		return
	}
	// The pixel's tap addresses: uintptrs, which the collector does not follow (x and zrow stay
	// alive in the caller's hands).
	var buf [25]uintptr
	ptrs := buf[:]
	if q.Taps > len(buf) {
		ptrs = make([]uintptr, q.Taps)
	}
	dwq8(unsafe.SliceData(x), &q.zrow[0], &offs[0], npix, q.Taps, &q.w[0], &q.bias[0], &q.scale[0], &out[0], ldo, q.C, q.lo, q.hi, q.zp, &ptrs[0])
}

//go:noescape
func clampQ8(d *int8, n int, lo int8, hi int8)

//go:noescape
func qaddQ8(dst *int8, a *int8, b *int8, n int, am int32, bm int32, bias int32, shift int32, zp int32, lo int32, hi int32)

func clampTile(d []int8, lo, hi int8) {
	if useI8AVX2 {
		clampA2Tile(d, lo, hi)
		return
	}
	if !useVNNI {
		clampQ8Go(d, lo, hi)
		return
	}
	clampQ8(&d[0], len(d), lo, hi)
}

func qaddTile(q *QAdd, dst, a, b []int8) {
	if useI8AVX2 && q.Shift <= 31 { // VPSRAD: a larger shift (no real layer) takes the Go loop
		qaddA2Tile(q, dst, a, b)
		return
	}
	if !useVNNI || q.Shift > 31 {
		qaddGo(q, dst, a, b)
		return
	}
	qaddQ8(&dst[0], &a[0], &b[0], len(dst), q.AM, q.BM, q.Bias, int32(q.Shift), q.ZP, q.Lo, q.Hi)
}

//go:noescape
func maxQ8(d *int8, s *int8, n int)

func maxTile(d, s []int8) {
	if useI8AVX2 {
		maxA2Tile(d, s)
		return
	}
	if !useVNNI {
		maxQ8Go(d, s)
		return
	}
	maxQ8(&d[0], &s[0], len(d))
}

//go:noescape
func groupSumsQ8(dst *int32, src *int8, n int)

// groupSums sets g[i] = Σ (x+128) over codes [8i, 8i+8) of a, for the whole 64-byte chunks of
// a (len(g) ≥ len(a)/64·8), and returns how many codes it summed.
func groupSums(g []int32, a []int8) int {
	n := len(a) / 64
	if !(useVNNI || useI8AVX2) || n == 0 {
		return 0
	}
	if useI8AVX2 {
		groupSumsAVX2(&g[0], &a[0], n)
	} else {
		groupSumsQ8(&g[0], &a[0], n)
	}
	return 64 * n
}

//go:noescape
func groupSumsAVX2(dst *int32, src *int8, n int)

func qb4Tile(p *QB4Packed, a []int8, lda int, bs []int32, bstep int, ksum, nzp []float32, c []float32, ldc, rows, pn, v int) {
	// The small tiles' high-nibble sums are 16·Σ x·(w+8): exact in int32 for blocks of up to
	// 2^17 channels; a larger block (no real layer) takes the portable tile, and so does an
	// empty filter (K = 0: no weights to point at; the outputs are ksum·nzp).
	if !(useVNNI || useI8AVX2) || p.Block > 1<<16 || p.K == 0 {
		qb4TileGo(p, a, lda, bs, bstep, ksum, nzp, c, ldc, rows, pn, v)
		return
	}
	if useI8AVX2 {
		qb4TileAVX2(p, a, lda, bs, bstep, ksum, nzp, c, ldc, rows, pn, v)
		return
	}
	kp := p.K / 8
	qb4Kernels[rows][v](&a[0], lda, &p.w[pn*kp*64], kp*64, p.nb, p.Block/8, &bs[0], 4*bstep, &p.bscale[pn*p.nb*QPanel],
		p.nb*2*QPanel, &ksum[0], &nzp[0], &c[0], ldc, p.lastMask(pn+v-1))
}

//go:noescape
func quantizeQ8(dst *int8, src *float32, n int, inv float32, lo float32, hi float32, zp int32, nanv float32)

//go:noescape
func dequantizeQ8(dst *float32, src *int8, n int, scale float32, zp int32)

//go:noescape
func mulQ8(dst *int8, a *int8, b *int8, n int, azp int32, bzp int32, scale float32, lo float32, hi float32, zp int32)

func quantizeTile(dst []int8, src []float32, inv, lo, hi float32, zp int32, nanv float32) {
	if useI8AVX2 {
		quantizeA2Tile(dst, src, inv, lo, hi, zp, nanv)
		return
	}
	if !useVNNI {
		quantizeQ8Go(dst, src, inv, lo, hi, zp, nanv)
		return
	}
	quantizeQ8(&dst[0], &src[0], len(dst), inv, lo, hi, zp, nanv)
}

//go:noescape
func rminmaxF32(x *float32, n int) (lo float32, hi float32)

func rowMinMaxTile(x []float32) (lo, hi float32) {
	if useI8AVX2 {
		return rminmaxA2(&x[0], len(x))
	}
	if !useVNNI {
		return rowMinMaxGo(x)
	}
	return rminmaxF32(&x[0], len(x))
}

func dequantizeTile(dst []float32, src []int8, scale float32, zp int32) {
	if useI8AVX2 {
		dequantizeA2Tile(dst, src, scale, zp)
		return
	}
	if !useVNNI {
		dequantizeQ8Go(dst, src, scale, zp)
		return
	}
	dequantizeQ8(&dst[0], &src[0], len(dst), scale, zp)
}

func mulTile(q *QMul, dst, a, b []int8) {
	if useI8AVX2 {
		mulA2Tile(q, dst, a, b)
		return
	}
	if !useVNNI {
		mulQ8Go(q, dst, a, b)
		return
	}
	mulQ8(&dst[0], &a[0], &b[0], len(dst), q.AZP, q.BZP, q.Scale, float32(q.Lo-q.ZP), float32(q.Hi-q.ZP), q.ZP)
}

//go:noescape
func sumRowsQ8(sums *int32, x *int8, rows int, c int)

func sumRowsTile(sums []int32, x []int8, rows, c int) {
	if useI8AVX2 {
		sumRowsA2Tile(sums, x, rows, c)
		return
	}
	if !useVNNI {
		sumRowsQ8Go(sums, x, rows, c)
		return
	}
	sumRowsQ8(&sums[0], &x[0], rows, c)
}

// cpuVBMI: the table lookup's byte permutes (VPERMI2B).
var cpuVBMI = cpuVNNI && cpu.X86.HasAVX512VBMI

//go:noescape
func lut8(dst *int8, src *int8, n int, t *int8)

func lutTile(l *LUT8, dst, src []int8) {
	if useI8AVX2 {
		lutA2Tile(l, dst, src)
		return
	}
	if !useVNNI || !cpuVBMI {
		lutGo(l, dst, src)
		return
	}
	lut8(&dst[0], &src[0], len(dst), &l.t[0])
}

func indirectTile(q *QS8, ind *QIndirect, x, zrow []int8, r0, rows int, c []int8, ldc, pn, v int) {
	if useI8AVX2 {
		indirectTileAVX2(q, ind, x, zrow, r0, rows, c, ldc, pn, v)
		return
	}
	if !useVNNI {
		indirectTileGo(q, ind, x, zrow, r0, rows, c, ldc, pn, v)
		return
	}
	p := q.P
	qi8Kernels[rows][v](&ind.tab[(r0/qMaxRows)*ind.Taps*qMaxRows], ind.Taps, ind.C/4, unsafe.SliceData(x), &zrow[0],
		&p.w[pn*p.kg*64], p.kg*64, &q.bias[pn*QPanel], &q.scale[pn*QPanel], &c[0], ldc, q.lo, q.hi, q.zp, p.lastMask(pn+v-1))
}

//go:noescape
func pad3to4(dst *int8, src *int8, pixels int, perm *int8)

// pad3to4Tile widens the pixels it can with VPERMB (each load reads 64 codes, so the last 16
// pixels or fewer stay for the caller) and returns how many it did.
func pad3to4Tile(dst, src []int8, pixels int) int {
	if useI8AVX2 {
		return pad3to4A2Tile(dst, src, pixels)
	}
	if !useVNNI || !cpuVBMI || pixels <= 16 {
		return 0
	}
	n := (pixels - 16) &^ 15
	if n > 0 {
		pad3to4(&dst[0], &src[0], n, &pad3Perm[0])
	}
	return n
}

//go:noescape
func qd8Finish(out *float32, acc *int32, ksum *int32, n int, zp int32, rscale float32, wscale *float32, bias *float32, lo float32, hi float32)

func qd8FinishTile(out []float32, acc, ksum []int32, zp int32, rscale float32, wscale, bias []float32, lo, hi float32) {
	if useI8AVX2 {
		qd8FinishA2Tile(out, acc, ksum, zp, rscale, wscale, bias, lo, hi)
		return
	}
	if !useVNNI {
		qd8FinishGo(out, acc, ksum, zp, rscale, wscale, bias, lo, hi)
		return
	}
	qd8Finish(&out[0], &acc[0], &ksum[0], len(out), zp, rscale, &wscale[0], &bias[0], lo, hi)
}
