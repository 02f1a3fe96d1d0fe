package gemm

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
	quantizeTile(dst, src[:len(dst)], inv, float32(-128-zp), float32(127-zp), zp)
}

func quantizeQ8Go(dst []int8, src []float32, inv, lo, hi float32, zp int32) {
	const magic = 12582912
	for i, x := range src {
		v := x * inv
		if v != v {
			v = 0
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
