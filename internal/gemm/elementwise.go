package gemm

import "math"

// The portable elementwise loops: the whole operation off amd64 or under purego, and the tails
// (fewer than 8 elements) after the vector kernels.

// hardswishGo is XNNPACK's hardswish: x·min(max(x·(1/6) + 1/2, 0), 1), with a fused multiply-add
// and the clamp value first (a NaN becomes 0, and the product with x NaN again). Unlike
// x·relu6(x+3)/6 it does not overflow for |x| near MaxFloat32 (the official runtime gives x).
func hardswishGo(dst, src []float32) {
	src = src[:len(dst)]
	for i, x := range src {
		r := float32(math.FMA(float64(x), hswishSixth, 0.5))
		if !(r > 0) {
			r = 0
		}
		if !(r < 1) {
			r = 1
		}
		dst[i] = r * x
	}
}

// hswishSixth is XNNPACK's 1/6 in float32 (0x1.555556p-3).
const hswishSixth = float64(float32(1.0 / 6))

func mulGo(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * b[i]
	}
}

func addGo(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
}

// x86 MAXPS and MINPS, which XNNPACK's pooling kernels are written in: the first operand when it
// compares greater (smaller), else the second, so a NaN in either gives the second.
func maxps(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}

func minps(a, b float32) float32 {
	if a < b {
		return a
	}
	return b
}

// maxPool9Go is one pass of XNNPACK's 9-tap max-pooling microkernel (the x86 one of the XNNPACK
// in ExecuTorch 1.5.1) over a window's taps, channel by channel: the taps reduce as
// max(max(max(t2,t3), max(t4,t5)), max(max(max(t0,t1), t8), max(t6,t7))) with maxps's operand
// order; the first pass then takes max(acc, lo), a later one max(dst, acc) (dst holding the
// earlier passes' result); every pass ends with min(acc, hi). So whether a NaN tap survives
// depends on its position, and a NaN left by the first pass becomes lo, by a later one hi. That
// is what the official runtime returns (its max pooling never outputs NaN), unlike PyTorch, whose
// max pooling is NaN when any tap is.
func maxPool9Go(dst []float32, t *[9][]float32, first bool, lo, hi float32) {
	t0, t1, t2, t3, t4, t5, t6, t7, t8 := t[0][:len(dst)], t[1][:len(dst)], t[2][:len(dst)], t[3][:len(dst)],
		t[4][:len(dst)], t[5][:len(dst)], t[6][:len(dst)], t[7][:len(dst)], t[8][:len(dst)]
	for c := range dst {
		m018 := maxps(maxps(t0[c], t1[c]), t8[c])
		m2345 := maxps(maxps(t2[c], t3[c]), maxps(t4[c], t5[c]))
		acc := maxps(m2345, maxps(m018, maxps(t6[c], t7[c])))
		if first {
			acc = maxps(acc, lo)
		} else {
			acc = maxps(dst[c], acc)
		}
		dst[c] = minps(acc, hi)
	}
}

// StridedCopy copies count runs of run values: run r from src[r*srcStride:] to dst[r*dstStride:]
// (an im2col's kernel rows for a row of output pixels). It reports false, copying nothing, when a
// run would fall outside dst or src.
func StridedCopy(dst []float32, dstStride int, src []float32, srcStride int, count, run int) bool {
	if count <= 0 || run <= 0 {
		return count >= 0 && run >= 0
	}
	if dstStride < 0 || srcStride < 0 || (count-1)*dstStride+run > len(dst) || (count-1)*srcStride+run > len(src) {
		return false
	}
	if stridedCopyVector(dst, dstStride, src, srcStride, count, run) {
		return true
	}
	for r := 0; r < count; r++ {
		copy(dst[r*dstStride:r*dstStride+run], src[r*srcStride:r*srcStride+run])
	}
	return true
}

// SumRows adds rows of x into acc: acc[c] += Σ_r x[r*stride+c] for c < len(acc), r < rows (a
// global average pool's sum over pixels). It reports false, adding nothing, when a row would fall
// outside x.
func SumRows(acc, x []float32, rows, stride int) bool {
	n := len(acc)
	if rows <= 0 || n == 0 {
		return rows >= 0
	}
	if stride < 0 || (rows-1)*stride+n > len(x) {
		return false
	}
	if sumRowsVector(acc, x, rows, stride) {
		return true
	}
	for r := 0; r < rows; r++ {
		addGo(acc, acc, x[r*stride:r*stride+n])
	}
	return true
}

// sigmoidGo sets dst[i] = 1/(1+exp(-x)) for x = src[i] with XNNPACK's scalar algorithm
// (f32-vsigmoid rr2_p5_div): for z = |x|, e = exp(-z) (expNonPositive), f = e/(e+1) (0 past
// the denormal cutoff), and 1-f for positive x. Within about 3 ulp of the exact value; NaN
// stays NaN, ±Inf give 1 and 0. It replaces float64 math.Exp per element, which was most of
// a SiLU network's time (EfficientNet-B0: 82 % of the run). sigmoid8 is the same algorithm
// eight lanes at a time, with fused multiply-adds (as XNNPACK's avx2_rr1_p5 kernel).
func sigmoidGo(dst, src []float32) {
	src = src[:len(dst)]
	for i, x := range src {
		e := expNonPositive(-float32(math.Abs(float64(x))))
		f := e / (e + 1)
		if x > 0 {
			f = 1 - f
		}
		dst[i] = f
	}
}

// geluGo sets dst[i] = x·(1 + erf(x/√2))/2 for x = src[i] with XNNPACK's rational
// approximation of erf (f32-vgelu rational_12_10: an odd degree-11 polynomial over an even
// degree-10 one, the input capped at ±5.1158981323, where its non-FMA form reaches ±1). Within
// a few ulp of the exact GELU; NaN stays NaN (the cap replaces it, the final product with x
// brings it back). gelu8 is the same with fused multiply-adds (and their cap, 5.1638283730).
func geluGo(dst, src []float32) {
	const (
		maxAbs = 5.1158981323
		a1     = 7.9788452387e-01
		a3     = 6.6972173750e-02
		a5     = 9.3065137044e-03
		a7     = 3.2973114867e-04
		a9     = 1.2609783880e-05
		a11    = 4.5835321316e-08
		b2     = 2.5060352683e-01
		b4     = 2.8431978077e-02
		b6     = 1.8622842617e-03
		b8     = 7.2267655923e-05
		b10    = 1.1988805682e-06
	)
	src = src[:len(dst)]
	for i, x0 := range src {
		x := minps(x0, maxAbs)
		x = maxps(x, -maxAbs)
		x2 := x * x
		p := a11*x2 + a9
		p = p*x2 + a7
		p = p*x2 + a5
		p = p*x2 + a3
		p = p*x2 + a1
		p *= x
		q := b10*x2 + b8
		q = q*x2 + b6
		q = q*x2 + b4
		q = q*x2 + b2
		q = q*x2 + 1
		dst[i] = (p/q + 1) * 0.5 * x0
	}
}

// expMinusMaxGo sets dst[i] = exp(src[i] - max) and returns their sum, with XNNPACK's
// algorithm (f32-raddstoreexpminusmax rr2_p5: expNonPositive), summed in float32 as XNNPACK's
// softmax does.
func expMinusMaxGo(dst, src []float32, m float32) float32 {
	src = src[:len(dst)]
	var sum float32
	for i, v := range src {
		f := expNonPositive(v - m)
		dst[i] = f
		sum += f
	}
	return sum
}

// expNonPositive is exp(x) for x ≤ 0 as XNNPACK's rr2_p5 kernels compute it: k = round(x·log2 e)
// by the magic-bias trick, t = x - k·ln2 in two steps, exp(x) = 2^k·(1 + t·p(t)) with p of
// degree 5, and 0 below the denormal cutoff (NaN stays NaN). Sigmoid and softmax share it.
func expNonPositive(x float32) float32 {
	const (
		magicBias    = 0x1.8000FEp23
		log2e        = 0x1.715476p0
		minusLn2Hi   = -0x1.62E400p-1
		minusLn2Lo   = -0x1.7F7D1Cp-20
		c5           = 0x1.0F9F9Cp-7
		c4           = 0x1.573A1Ap-5
		c3           = 0x1.555A80p-3
		c2           = 0x1.FFFDC6p-2
		c1           = 0x1.FFFFF6p-1
		denormCutoff = -0x1.5D589Ep6
	)
	n := x*log2e + magicBias
	s := math.Float32frombits(math.Float32bits(n) << 23)
	n -= magicBias
	t := n*minusLn2Hi + x
	t = n*minusLn2Lo + t
	p := c5*t + c4
	p = p*t + c3
	p = p*t + c2
	p = p*t + c1
	t *= s
	if x < denormCutoff {
		return 0
	}
	return t*p + s
}

// Scale multiplies every element of d by s.
func Scale(d []float32, s float32) {
	for i := range d {
		d[i] *= s
	}
}
