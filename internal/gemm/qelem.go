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
