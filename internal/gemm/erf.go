package gemm

import "math"

// Erf sets dst[i] = erf(src[i]) (dst may be src), rounded to float32 from a float64 evaluation
// accurate to about 1e-13: the float32 result is the float64 math.Erf's rounded (the portable
// kernel's, and so the official float kernel's std::erf up to its own last-ulp rounding) except
// where the exact value lies within 1e-15 of a rounding boundary. NaN stays NaN, ±Inf give ±1,
// -0 stays -0. It replaces math.Erf's branches and exp per element (a GELU written with erf:
// 43 % of the run) with one polynomial per element, eight lanes at a time with AVX-512 (about
// 25x math.Erf), four with AVX2 (the same floats; its coefficient gathers make it only about
// 1.5x the Go loop on Zen 3), in Go elsewhere (about as fast as math.Erf, more accurate than
// needed):
//   - |x| < 1/2: erf(x) = x·P(x²), P the Chebyshev interpolant of erf(x)/x in x², so tiny and
//     denormal x keep their relative accuracy;
//   - 1/2 ≤ |x| < 4: one of 14 pieces of width 1/4, each the Chebyshev interpolant of math.Erf;
//     both of degree erfDegree, built at init, held in the power basis of the piece's variable
//     on [-1, 1] and evaluated in Estrin's scheme;
//   - |x| ≥ 4: ±1 (1 - erf(4) = 1.5e-8 is below half a float32 ulp of 1).
func Erf(dst, src []float32) {
	src = src[:len(dst)]
	if v := erfVector(dst, src); v > 0 {
		dst, src = dst[v:], src[v:]
	}
	for i, v := range src {
		// erf64, inlined by hand (the call and its spills were a third of the time).
		x := float64(v)
		t := math.Abs(x)
		var c *[erfDegree + 1]float64
		var u, scale float64
		switch {
		case t < erfLo:
			c, u, scale = &erfSmall, 8*x*x-1, x
		case t < erfHi:
			k := min(int((t-erfLo)*(1/erfWidth)), erfPieces-1)
			c, u, scale = &erfPiece[k], (t-erfLo-float64(k)*erfWidth)*(2/erfWidth)-1, math.Copysign(1, x)
		default:
			dst[i] = v // NaN
			if t == t {
				dst[i] = float32(math.Copysign(1, x))
			}
			continue
		}
		u2 := u * u
		u4 := u2 * u2
		p03 := (c[3]*u+c[2])*u2 + (c[1]*u + c[0])
		p47 := (c[7]*u+c[6])*u2 + (c[5]*u + c[4])
		dst[i] = float32(scale * (p47*u4 + p03))
	}
}

const (
	erfDegree = 7
	erfPieces = 14
	erfLo     = 0.5
	erfHi     = 4.0
	erfWidth  = (erfHi - erfLo) / erfPieces
)

// erfSmall is erf(x)/x as a polynomial in v ∈ [-1, 1], s = x² = (v+1)/8 ∈ [0, 1/4].
var erfSmall = chebPower(func(v float64) float64 {
	s := (v + 1) / 8
	if s == 0 {
		return 2 / math.SqrtPi
	}
	x := math.Sqrt(s)
	return math.Erf(x) / x
})

// erfPiece holds each piece's polynomial in u ∈ [-1, 1] (t = a + (u+1)·width/2).
var erfPiece = func() (p [erfPieces][erfDegree + 1]float64) {
	for k := range p {
		a := erfLo + float64(k)*erfWidth
		p[k] = chebPower(func(u float64) float64 { return math.Erf(a + (u+1)*erfWidth/2) })
	}
	return p
}()

// chebPower interpolates f on [-1, 1] at the erfDegree+1 Chebyshev nodes and returns the
// interpolant in the power basis, lowest degree first.
func chebPower(f func(float64) float64) (p [erfDegree + 1]float64) {
	const n = erfDegree + 1
	var fv [n]float64
	for j := range fv {
		fv[j] = f(math.Cos(math.Pi * (float64(j) + 0.5) / n))
	}
	var c [n]float64
	for i := range c {
		s := 0.0
		for j := range fv {
			s += fv[j] * math.Cos(math.Pi*float64(i)*(float64(j)+0.5)/n)
		}
		c[i] = 2 * s / n
	}
	c[0] /= 2
	// T_0 = 1, T_1 = u, T_{i+1} = 2u·T_i - T_{i-1}.
	var tPrev, tCur [n]float64
	tPrev[0], tCur[1] = 1, 1
	p[0], p[1] = c[0], c[1]
	for i := 2; i < n; i++ {
		var next [n]float64
		for d := 0; d < n-1; d++ {
			next[d+1] = 2 * tCur[d]
		}
		for d := range next {
			next[d] -= tPrev[d]
			p[d] += c[i] * next[d]
		}
		tPrev, tCur = tCur, next
	}
	return p
}

// estrin7 evaluates c[0] + c[1]·u + … + c[7]·u⁷ in Estrin's scheme: three levels of
// multiply-adds instead of Horner's chain of seven, so consecutive elements overlap. (Plain
// products and sums: math.FMA's CPU check and spills cost more than it saves here.)
func estrin7(c *[erfDegree + 1]float64, u float64) float64 {
	u2 := u * u
	u4 := u2 * u2
	p01 := math.FMA(c[1], u, c[0])
	p23 := math.FMA(c[3], u, c[2])
	p45 := math.FMA(c[5], u, c[4])
	p67 := math.FMA(c[7], u, c[6])
	p03 := p23*u2 + p01
	p47 := p67*u2 + p45
	return p47*u4 + p03
}

// erf64 is Erf's float64 evaluation.
func erf64(x float64) float64 {
	t := math.Abs(x)
	if t < erfLo {
		return x * estrin7(&erfSmall, 8*x*x-1)
	}
	if !(t < erfHi) {
		if t != t {
			return x
		}
		return math.Copysign(1, x)
	}
	k := int((t - erfLo) * (1 / erfWidth))
	k = min(k, erfPieces-1)
	u := (t-erfLo-float64(k)*erfWidth)*(2/erfWidth) - 1
	return math.Copysign(estrin7(&erfPiece[k], u), x)
}

// erfTable is erfSmall and the pieces' coefficients coefficient-major for the vector kernel:
// erfTable[j][e] is coefficient j of entry e (0: erfSmall, 1-14: erfPiece[e-1], 15: unused).
var erfTable = func() (t [erfDegree + 1][16]float64) {
	for j := range t {
		t[j][0] = erfSmall[j]
		for k := range erfPiece {
			t[j][k+1] = erfPiece[k][j]
		}
	}
	return t
}()
