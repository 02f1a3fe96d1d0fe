package gemm

import (
	"math"
	"testing"
)

// TestSigmoid holds Sigmoid to the exact sigmoid within 5 ulp over a sweep of [-100, 100]
// (XNNPACK's kernels are up to 4.2 ulp off near the bottom of the normal range, the scalar one
// without fused multiply-adds about 3 ulp in the negative tail), and checks NaN in, NaN out,
// ±Inf and the denormal cutoff.
func TestSigmoid(t *testing.T) {
	var src []float32
	for x := -100.0; x <= 100; x += 0.0137 {
		src = append(src, float32(x))
	}
	src = append(src, 0, float32(math.Copysign(0, -1)), 1e-30, -1e-30, 87.3, -87.3, 87.4, -87.4, 88, -104, -150,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.MaxFloat32, -math.MaxFloat32)
	dst := make([]float32, len(src))
	Sigmoid(dst, src)
	worst := 0.0
	for i, x := range src {
		got := float64(dst[i])
		want := 1 / (1 + math.Exp(-float64(x)))
		if want >= 0x1p-126 && !math.IsNaN(got) {
			worst = max(worst, math.Abs(got-want)/ulp(float32(want)))
		}
		switch {
		case math.IsNaN(float64(x)):
			if !math.IsNaN(got) {
				t.Errorf("sigmoid(NaN) = %v", got)
			}
		case math.Abs(got-want) > 5*ulp(float32(want)) && !(want < 0x1p-126 && got == 0): // XNNPACK flushes results below the normal range to 0
			t.Errorf("sigmoid(%v) = %v, want %v (%.1f ulp)", x, got, want, math.Abs(got-want)/ulp(float32(want)))
		}
	}
	t.Logf("worst error %.2f ulp", worst)
}

func ulp(f float32) float64 {
	f = float32(math.Abs(float64(f)))
	return float64(math.Nextafter32(f, float32(math.Inf(1))) - f)
}

func BenchmarkSigmoid(b *testing.B) {
	src, dst := make([]float32, 4096), make([]float32, 4096)
	for i := range src {
		src[i] = float32(i%200-100) * 0.1
	}
	b.SetBytes(4 * 4096)
	for b.Loop() {
		Sigmoid(dst, src)
	}
}
