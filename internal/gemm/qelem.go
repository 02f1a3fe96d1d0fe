package gemm

import "math"

// ClampQ8 clamps int8 codes in place to [lo, hi] (a quantized clamp's range in codes).
func ClampQ8(d []int8, lo, hi int8) {
	if len(d) == 0 {
		return
	}
	clampTile(d, lo, hi)
}

func clampQ8Go(d []int8, lo, hi int8) {
	for i, v := range d {
		d[i] = min(max(v, lo), hi)
	}
}

// QAdd is XNNPACK's fixed-point int8 addition: dst[i] = clamp((Bias + a[i]·AM + b[i]·BM) >>
// Shift + ZP, Lo, Hi), the multipliers about 20 bits, the bias folding the input zero points and
// the rounding term (so the int32 sums do not overflow for int8 codes).
type QAdd struct {
	AM, BM, Bias int32
	Shift        uint32
	ZP, Lo, Hi   int32
}

// Run adds len(dst) codes; a and b hold at least as many.
func (q *QAdd) Run(dst, a, b []int8) {
	if len(dst) == 0 {
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	qaddTile(q, dst, a, b)
}

func qaddGo(q *QAdd, dst, a, b []int8) {
	for i := range dst {
		v := (q.Bias+int32(a[i])*q.AM+int32(b[i])*q.BM)>>q.Shift + q.ZP
		dst[i] = int8(min(max(v, q.Lo), q.Hi))
	}
}

// MaxQ8 sets d[i] = max(d[i], s[i]) (s at least as long as d): a max pooling tap.
func MaxQ8(d, s []int8) {
	if len(d) == 0 {
		return
	}
	maxTile(d, s[:len(d)])
}

func maxQ8Go(d, s []int8) {
	for i, v := range s {
		d[i] = max(d[i], v)
	}
}

// QuantizeQ8 is XNNPACK's fp32 -> qint8 conversion: dst[i] = round(clamp(src[i]·inv, -128-zp,
// 127-zp)) + zp, rounding to nearest even, NaN as 0 (inv is the reciprocal scale, in fp32).
// src holds at least len(dst) values.
func QuantizeQ8(dst []int8, src []float32, inv float32, zp int32) {
	if len(dst) == 0 {
		return
	}
	quantizeTile(dst, src[:len(dst)], inv, float32(-128-zp), float32(127-zp), zp, 0)
}

// QuantizeQD8 is XNNPACK's f32 -> qs8 conversion of a dynamically quantized row (the AVX-512
// f32-qs8-vcvt kernel): QuantizeQ8 with mult, but a NaN becomes 127.
func QuantizeQD8(dst []int8, src []float32, mult float32, zp int32) {
	if len(dst) == 0 {
		return
	}
	quantizeTile(dst, src[:len(dst)], mult, float32(-128-zp), float32(127-zp), zp, float32(127-zp))
}

func quantizeQ8Go(dst []int8, src []float32, inv, lo, hi float32, zp int32, nanv float32) {
	const magic = 12582912
	for i, x := range src {
		v := x * inv
		if v != v {
			v = nanv
		}
		v = min(max(v, lo), hi)
		dst[i] = int8(int32((v+magic)-magic) + zp)
	}
}

// DequantizeQ8 is XNNPACK's qint8 -> fp32 conversion: dst[i] = float(src[i] - zp)·scale (src
// at least as long as dst).
func DequantizeQ8(dst []float32, src []int8, scale float32, zp int32) {
	if len(dst) == 0 {
		return
	}
	dequantizeTile(dst, src[:len(dst)], scale, zp)
}

func dequantizeQ8Go(dst []float32, src []int8, scale float32, zp int32) {
	for i, c := range src {
		dst[i] = float32(int32(c)-zp) * scale
	}
}

// QMul is XNNPACK's qint8 product: dst[i] = round(clamp(float((a[i]-AZP)·(b[i]-BZP))·Scale,
// Lo-ZP, Hi-ZP)) + ZP, the range Lo, Hi in codes.
type QMul struct {
	AZP, BZP   int32
	Scale      float32
	ZP, Lo, Hi int32
}

// Run multiplies len(dst) codes; a and b hold at least as many.
func (q *QMul) Run(dst, a, b []int8) {
	if len(dst) == 0 {
		return
	}
	mulTile(q, dst, a[:len(dst)], b[:len(dst)])
}

func mulQ8Go(q *QMul, dst, a, b []int8) {
	lo, hi := float32(q.Lo-q.ZP), float32(q.Hi-q.ZP)
	for i := range dst {
		dst[i] = int8(requantFP32((int32(a[i])-q.AZP)*(int32(b[i])-q.BZP), q.Scale, lo, hi, q.ZP))
	}
}

// SumRowsQ8 adds rows of c codes into sums: sums[ch] += Σ_r x[r·c + ch] (a global average
// pooling's int32 sums; x holds at least rows·c codes, sums c values).
func SumRowsQ8(sums []int32, x []int8, rows, c int) {
	if rows <= 0 || c <= 0 {
		return
	}
	sumRowsTile(sums[:c], x[:rows*c], rows, c)
}

func sumRowsQ8Go(sums []int32, x []int8, rows, c int) {
	for r := range rows {
		for ch, v := range x[r*c : (r+1)*c] {
			sums[ch] += int32(v)
		}
	}
}

// RowMinMax is XNNPACK's f32 rminmax on x86 with AVX-512 (f32-rminmax-avx512f-u64-acc4), lane
// for lane, because with a NaN in the row the answer depends on where it lies: MINPS and MAXPS
// with the running value first return the element when either is NaN, so a NaN element
// replaces its lane's running value and the lane's next element replaces the NaN. Sixteen
// lanes, four accumulators over blocks of 64, folded, then blocks of 16, then the tail with
// each element broadcast to every lane, then the lanes reduced as GCC's _mm512_reduce_min_ps /
// _mm512_reduce_max_ps do (halves, quarters, then pairs). Without NaN it is the plain min and
// max, whatever the order. An empty row gives +Inf, -Inf.
func RowMinMax(x []float32) (lo, hi float32) {
	if len(x) == 0 {
		return float32(math.Inf(1)), float32(math.Inf(-1))
	}
	return rowMinMaxTile(x)
}

func rowMinMaxGo(x []float32) (lo, hi float32) {
	var mn, mx [4][16]float32
	for a := range 4 {
		for l := range 16 {
			mn[a][l], mx[a][l] = float32(math.Inf(1)), float32(math.Inf(-1))
		}
	}
	i := 0
	for ; len(x)-i >= 64; i += 64 {
		for a := range 4 {
			for l := range 16 {
				v := x[i+16*a+l]
				mn[a][l], mx[a][l] = x86Min(mn[a][l], v), x86Max(mx[a][l], v)
			}
		}
	}
	for l := range 16 {
		mn[0][l], mx[0][l] = x86Min(mn[0][l], mn[1][l]), x86Max(mx[0][l], mx[1][l])
		mn[2][l], mx[2][l] = x86Min(mn[2][l], mn[3][l]), x86Max(mx[2][l], mx[3][l])
		mn[0][l], mx[0][l] = x86Min(mn[0][l], mn[2][l]), x86Max(mx[0][l], mx[2][l])
	}
	for ; len(x)-i >= 16; i += 16 {
		for l := range 16 {
			v := x[i+l]
			mn[0][l], mx[0][l] = x86Min(mn[0][l], v), x86Max(mx[0][l], v)
		}
	}
	for ; i < len(x); i++ {
		for l := range 16 {
			mn[0][l], mx[0][l] = x86Min(mn[0][l], x[i]), x86Max(mx[0][l], x[i])
		}
	}
	return reduce16(mn[0], x86Min), reduce16(mx[0], x86Max)
}

// reduce16 is GCC's _mm512_reduce_{min,max}_ps: op(high half, low half) down to 4 lanes, then
// op(v, v shuffled {2,3,0,1}), then op(v, v shuffled {1,0,3,2}), lane 0.
func reduce16(v [16]float32, op func(a, b float32) float32) float32 {
	var h [8]float32
	for l := range 8 {
		h[l] = op(v[8+l], v[l])
	}
	var q [4]float32
	for l := range 4 {
		q[l] = op(h[4+l], h[l])
	}
	t := [4]float32{op(q[0], q[2]), op(q[1], q[3]), op(q[2], q[0]), op(q[3], q[1])}
	return op(t[0], t[1])
}

// x86Min and x86Max are MINPS and MAXPS: the second operand when either is NaN.
func x86Min(a, b float32) float32 {
	if a < b {
		return a
	}
	return b
}

func x86Max(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}

// LUT8 maps int8 codes through a 256-entry table, indexed by the code's byte.
type LUT8 struct{ t [256]int8 }

// NewLUT8 makes a table: code c maps to t[uint8(c)].
func NewLUT8(t [256]int8) *LUT8 { return &LUT8{t: t} }

// Run sets dst[i] = table[src[i]] (src at least as long as dst).
func (l *LUT8) Run(dst, src []int8) {
	if len(dst) == 0 {
		return
	}
	lutTile(l, dst, src[:len(dst)])
}

func lutGo(l *LUT8, dst, src []int8) {
	for i, c := range src {
		dst[i] = l.t[uint8(c)]
	}
}

// Pad3To4 widens pixels of 3 codes to 4 codes (dst[4i+j] = src[3i+j], j < 3; the fourth code
// of each pixel is left as it was), so a first convolution layer over 3 channels can run on
// the indirect GEMM, whose taps read whole groups of 4 (the filter's fourth channel is zeros).
func Pad3To4(dst, src []int8, pixels int) {
	if pixels <= 0 {
		return
	}
	dst, src = dst[:4*pixels], src[:3*pixels]
	done := pad3to4Tile(dst, src, pixels)
	for i := done; i < pixels; i++ {
		dst[4*i], dst[4*i+1], dst[4*i+2] = src[3*i], src[3*i+1], src[3*i+2]
	}
}

// pad3Perm is VPERMB's index: output byte 4i+j from input byte 3i+j (j = 3 repeats byte 3i+2).
var pad3Perm = func() (p [64]int8) {
	for i := range 16 {
		for j := range 4 {
			p[4*i+j] = int8(3*i + min(j, 2))
		}
	}
	return
}()

// QD8Finish finishes one row of a qd8 × qc8w layer from the int8 GEMM's sums (QPacked.Acc):
// out[o] = min(hi, max(lo, fma(float(acc[o] - zp·ksum[o])·rscale, wscale[o], bias[o]))),
// zp the row's zero point plus 128 (Acc's sums are of x+128), the fma rounded once, and the
// bounds first in the comparisons, so a NaN stays NaN (XNNPACK's AVX-512 VNNI kernels). bias
// holds len(out) values (zeros for none).
func QD8Finish(out []float32, acc, ksum []int32, zp int32, rscale float32, wscale, bias []float32, lo, hi float32) {
	n := len(out)
	if n == 0 {
		return
	}
	qd8FinishTile(out, acc[:n], ksum[:n], zp, rscale, wscale[:n], bias[:n], lo, hi)
}

func qd8FinishGo(out []float32, acc, ksum []int32, zp int32, rscale float32, wscale, bias []float32, lo, hi float32) {
	for o, a := range acc {
		v := FMA32(float32(a-zp*ksum[o])*rscale, wscale[o], bias[o])
		out[o] = x86Min(hi, x86Max(lo, v))
	}
}
