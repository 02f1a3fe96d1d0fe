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

// TestVecRows: dotRows and axpyRows (one assembly call over every row where the CPU has it) give
// exactly the bits of one dot or axpy per row, NaN and infinities included, for head dims across
// the 32- and 8-float steps and strides past the dim.
func TestVecRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	same := func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) || (x != x && y != y) }
	for _, d := range []int{0, 1, 7, 8, 9, 31, 32, 33, 40, 64, 100, 128} {
		for _, n := range []int{1, 2, 5, 17} {
			for _, special := range []float32{0, float32(math.NaN()), float32(math.Inf(1))} {
				stride := d + r.IntN(3)*8
				q := make([]float32, d)
				k := make([]float32, (n-1)*stride+d)
				for i := range q {
					q[i] = float32(r.NormFloat64())
				}
				for i := range k {
					k[i] = float32(r.NormFloat64())
				}
				if special != 0 && len(k) > 0 {
					k[r.IntN(len(k))] = special
				}
				got, want := make([]float32, n), make([]float32, n)
				dotRows(got, q, k, stride)
				dotRowsGo(want, q, k, stride)
				for c := range got {
					if !same(got[c], want[c]) {
						t.Errorf("d=%d n=%d special %v: dotRows[%d] %v, per-row dot %v", d, n, special, c, got[c], want[c])
					}
				}
				p := make([]float32, n)
				for i := range p {
					p[i] = float32(r.NormFloat64())
				}
				d1, d2 := make([]float32, d), make([]float32, d)
				for i := range d1 {
					d1[i] = float32(r.NormFloat64())
					d2[i] = d1[i]
				}
				axpyRows(d1, k, stride, p)
				axpyRowsGo(d2, k, stride, p)
				for i := range d1 {
					if !same(d1[i], d2[i]) {
						t.Errorf("d=%d n=%d special %v: axpyRows[%d] %v, per-row axpy %v", d, n, special, i, d1[i], d2[i])
					}
				}
			}
		}
	}
}
