package gemm

import (
	"math"
	"testing"
)

// TestGelu holds Gelu to the exact x·(1+erf(x/√2))/2 over a sweep of [-10, 10]: within 4 ulp of
// the result, or 2e-7·|x| absolute where 1+erf cancels (the negative tail, as XNNPACK's own
// kernel), and checks NaN, ±Inf and the cap.
func TestGelu(t *testing.T) {
	var src []float32
	for x := -10.0; x <= 10; x += 0.00731 {
		src = append(src, float32(x))
	}
	src = append(src, 0, 5.1158981323, 5.1638283730, -5.2, 1e-20, -1e-20)
	dst := make([]float32, len(src))
	Gelu(dst, src)
	worst := 0.0
	for i, x := range src {
		got := float64(dst[i])
		want := float64(x) * (1 + math.Erf(float64(x)/math.Sqrt2)) / 2
		tol := max(4*ulp(float32(want)), 2e-7*math.Abs(float64(x)))
		if d := math.Abs(got - want); d > tol {
			t.Errorf("gelu(%v) = %v, want %v", x, got, want)
		} else if u := ulp(float32(want)); 4*u >= tol {
			worst = max(worst, d/u)
		}
	}
	t.Logf("worst error %.1f ulp where the ulp bound applies", worst)
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
	out := make([]float32, 8)
	in := append(special, 1, 2, 3, 4, 5)
	Gelu(out, in)
	if !math.IsNaN(float64(out[0])) || !math.IsInf(float64(out[1]), 1) || !math.IsNaN(float64(out[2])) {
		t.Errorf("gelu(NaN, +Inf, -Inf) = %v, want NaN, +Inf, NaN (−Inf·0)", out[:3])
	}
}

func BenchmarkGelu(b *testing.B) {
	src, dst := make([]float32, 4096), make([]float32, 4096)
	for i := range src {
		src[i] = float32(i%200-100) * 0.05
	}
	b.SetBytes(4 * 4096)
	for b.Loop() {
		Gelu(dst, src)
	}
}
