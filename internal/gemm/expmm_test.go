package gemm

import (
	"math"
	"testing"
)

// TestExpMinusMax: exp(x - max) within 5 ulp (XNNPACK's rr1 kernel reaches 4.1 near the bottom of the range; 0 below the denormal cutoff, as XNNPACK), the
// sum within float32 accumulation error, for both kernels' lengths (the vector body and the
// tail).
func TestExpMinusMax(t *testing.T) {
	for _, n := range []int{1, 7, 8, 29, 1000} {
		src := make([]float32, n)
		for i := range src {
			src[i] = float32(math.Sin(float64(i))*40 - 20)
		}
		m := float32(math.Inf(-1))
		for _, v := range src {
			m = max(m, v)
		}
		dst := make([]float32, n)
		sum := ExpMinusMax(dst, src, m)
		var want float64
		for i, v := range src {
			e := math.Exp(float64(v - m)) // the difference rounded to float32, as both kernels take it
			want += e
			if e < 0x1p-126 {
				if dst[i] != 0 && math.Abs(float64(dst[i])-e) > 4*ulp(float32(e)) {
					t.Errorf("n=%d exp(%v) = %v, want %v or 0", n, v-m, dst[i], e)
				}
				continue
			}
			if d := math.Abs(float64(dst[i]) - e); d > 5*ulp(float32(e)) {
				t.Errorf("n=%d exp(%v) = %v, want %v (%.1f ulp)", n, v-m, dst[i], e, d/ulp(float32(e)))
			}
		}
		if math.Abs(float64(sum)-want) > 1e-6*want*float64(n) {
			t.Errorf("n=%d sum %v, want %v", n, sum, want)
		}
	}
	// -Inf - max is 0; NaN stays NaN.
	dst := make([]float32, 8)
	ExpMinusMax(dst, []float32{float32(math.Inf(-1)), float32(math.NaN()), 0, 0, 0, 0, 0, 0}, 0)
	if dst[0] != 0 || !math.IsNaN(float64(dst[1])) || dst[2] != 1 {
		t.Errorf("exp(-Inf), exp(NaN), exp(0) = %v", dst[:3])
	}
}
