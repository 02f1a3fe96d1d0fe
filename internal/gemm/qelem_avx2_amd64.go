//go:build amd64 && !purego

package gemm

// The AVX2 elementwise kernels (qelem_avx2_amd64.s) take whole blocks; the Go loops do the
// tails, with the same arithmetic.

//go:noescape
func clampA2(d *int8, n int, lo int8, hi int8)

//go:noescape
func maxA2(d *int8, s *int8, n int)

//go:noescape
func qaddA2(dst *int8, a *int8, b *int8, n int, am int32, bm int32, bias int32, shift int32, zp int32, lo int32, hi int32)

//go:noescape
func quantizeA2(dst *int8, src *float32, n int, inv float32, lo float32, hi float32, zp int32, nanv float32)

//go:noescape
func dequantizeA2(dst *float32, src *int8, n int, scale float32, zp int32)

//go:noescape
func mulA2(dst *int8, a *int8, b *int8, n int, azp int32, bzp int32, scale float32, lo float32, hi float32, zp int32)

//go:noescape
func sumRowsA2(sums *int32, x *int8, rows int, c int, ldx int)

//go:noescape
func qd8FinishA2(out *float32, acc *int32, ksum *int32, n int, zp int32, rscale float32, wscale *float32, bias *float32, lo float32, hi float32)

func clampA2Tile(d []int8, lo, hi int8) {
	n := len(d) &^ 31
	if n > 0 {
		clampA2(&d[0], n, lo, hi)
	}
	clampQ8Go(d[n:], lo, hi)
}

func maxA2Tile(d, s []int8) {
	n := len(d) &^ 31
	if n > 0 {
		maxA2(&d[0], &s[0], n)
	}
	maxQ8Go(d[n:], s[n:])
}

func qaddA2Tile(q *QAdd, dst, a, b []int8) {
	n := len(dst) &^ 7
	if n > 0 {
		qaddA2(&dst[0], &a[0], &b[0], n, q.AM, q.BM, q.Bias, int32(q.Shift), q.ZP, q.Lo, q.Hi)
	}
	qaddGo(q, dst[n:], a[n:], b[n:])
}

func quantizeA2Tile(dst []int8, src []float32, inv, lo, hi float32, zp int32, nanv float32) {
	n := len(dst) &^ 7
	if n > 0 {
		quantizeA2(&dst[0], &src[0], n, inv, lo, hi, zp, nanv)
	}
	quantizeQ8Go(dst[n:], src[n:], inv, lo, hi, zp, nanv)
}

func dequantizeA2Tile(dst []float32, src []int8, scale float32, zp int32) {
	n := len(dst) &^ 7
	if n > 0 {
		dequantizeA2(&dst[0], &src[0], n, scale, zp)
	}
	dequantizeQ8Go(dst[n:], src[n:], scale, zp)
}

func mulA2Tile(q *QMul, dst, a, b []int8) {
	n := len(dst) &^ 7
	if n > 0 {
		mulA2(&dst[0], &a[0], &b[0], n, q.AZP, q.BZP, q.Scale, float32(q.Lo-q.ZP), float32(q.Hi-q.ZP), q.ZP)
	}
	mulQ8Go(q, dst[n:], a[n:], b[n:])
}

func sumRowsA2Tile(sums []int32, x []int8, rows, c int) {
	c8 := c &^ 7
	if c8 > 0 {
		sumRowsA2(&sums[0], &x[0], rows, c8, c)
	}
	for r := range rows {
		for ch := c8; ch < c; ch++ {
			sums[ch] += int32(x[r*c+ch])
		}
	}
}

func qd8FinishA2Tile(out []float32, acc, ksum []int32, zp int32, rscale float32, wscale, bias []float32, lo, hi float32) {
	n := len(out) &^ 7
	if n > 0 {
		qd8FinishA2(&out[0], &acc[0], &ksum[0], n, zp, rscale, &wscale[0], &bias[0], lo, hi)
	}
	qd8FinishGo(out[n:], acc[n:], ksum[n:], zp, rscale, wscale[n:], bias[n:], lo, hi)
}

//go:noescape
func rminmaxA2(x *float32, n int) (lo float32, hi float32)

//go:noescape
func lutA2(dst *int8, src *int8, n int, t *int8)

func lutA2Tile(l *LUT8, dst, src []int8) {
	n := len(dst) &^ 63
	if n > 0 {
		lutA2(&dst[0], &src[0], n, &l.t[0])
	}
	lutGo(l, dst[n:], src[n:])
}

//go:noescape
func pad3to4A2(dst *int8, src *int8, pixels int)

// pad3to4A2Tile widens whole groups of 8 pixels but the last two pixels or more (each load
// reads 4 codes past the 12 it uses) and returns how many it did.
func pad3to4A2Tile(dst, src []int8, pixels int) int {
	n := max(0, pixels-2) &^ 7
	if n > 0 {
		pad3to4A2(&dst[0], &src[0], n)
	}
	return n
}
