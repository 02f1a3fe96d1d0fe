package portable

import "math"

// aten::sinh.out(Tensor self, *, Tensor(a!) out): the hyperbolic sine. Integral and bool inputs compute in
// float32; out must be floating.
func init() {
	register(arithFloatKernel32("aten::sinh.out", unboxSinhOut, math.Sinh, sinhf))
}

// sinhf is float32 sinh in the official kernel's order of operations: glibc's sinhf (the
// fdlibm algorithm) builds it in float32 arithmetic from expm1f or expf, so its result is not
// the correctly rounded sinh; following the same steps (with correctly rounded expm1f/expf)
// lands within 1 ulp of it where rounding the float64 sinh is 2 ulps away.
func sinhf(x float32) float32 {
	ax := float32(math.Abs(float64(x)))
	h := float32(0.5)
	if x < 0 {
		h = -0.5
	}
	switch {
	case x != x || ax > 89.5:
		return float32(math.Sinh(float64(x))) // NaN, and overflow to ±Inf
	case ax < 22:
		if ax < 0x1p-12 {
			return x
		}
		t := float32(math.Expm1(float64(ax)))
		if ax < 1 {
			return h * (2*t - t*t/(t+1))
		}
		return h * (t + t/(t+1))
	case ax < 88.72168:
		return h * float32(math.Exp(float64(ax)))
	}
	w := float32(math.Exp(float64(0.5 * ax)))
	return (h * w) * w
}
