package llm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestVec holds dot and axpy (assembly where the CPU has it) to the Go loops on every length up
// to a few vector widths past the 32-float step, with NaN and infinities: sums within float32
// rounding of each other (the orders differ), and the same NaN and infinity classes.
func TestVec(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 75; n++ {
		for _, special := range []float32{0, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
			a, b := make([]float32, n), make([]float32, n+3)
			var mag float64
			for i := range a {
				a[i], b[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
				mag += math.Abs(float64(a[i] * b[i]))
			}
			if special != 0 && n > 0 {
				a[r.IntN(n)] = special
			}
			got, want := dot(a, b), dotGo(a, b)
			if !close32(got, want, mag) {
				t.Errorf("n=%d special %v: dot %v, Go loop %v", n, special, got, want)
			}
			w := float32(r.NormFloat64())
			d1, d2 := make([]float32, n), make([]float32, n)
			for i := range d1 {
				d1[i] = float32(r.NormFloat64())
				d2[i] = d1[i]
			}
			axpy(d1, a, w)
			axpyGo(d2, a, w)
			for i := range d1 {
				if !close32(d1[i], d2[i], math.Abs(float64(d2[i]))+1) {
					t.Errorf("n=%d special %v: axpy[%d] %v, Go loop %v", n, special, i, d1[i], d2[i])
				}
			}
		}
	}
}

func close32(got, want float32, mag float64) bool {
	if want != want {
		return got != got
	}
	if math.IsInf(float64(want), 0) {
		return got == want
	}
	return math.Abs(float64(got-want)) <= 1e-6*mag+1e-30
}

// BenchmarkDot: a decode step's score (head dim 64 against one cached key).
func BenchmarkDot(b *testing.B) {
	x, y := make([]float32, 64), make([]float32, 64)
	for i := range x {
		x[i], y[i] = float32(i), float32(64-i)
	}
	var s float32
	for i := 0; i < b.N; i++ {
		s += dot(x, y)
	}
	_ = s
}
