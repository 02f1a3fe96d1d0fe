package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestElementwise checks the vector elementwise kernels (or, under purego, the portable loops)
// against direct formulas over lengths with and without a vector tail, in place and not.
func TestElementwise(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 1, 7, 8, 9, 16, 37, 100} {
		a := randSlice(r, n)
		for i := range a {
			a[i] *= 4 // cover both clamp edges of hardswish
		}
		if n > 3 {
			a[3] = float32(math.NaN())
		}
		b := randSlice(r, n+2)
		check := func(what string, got []float32, want func(i int) float32) {
			t.Helper()
			for i := range got {
				w := want(i)
				if !(got[i] == w || (got[i] != got[i] && w != w) || math.Abs(float64(got[i]-w)) <= 1e-6*math.Abs(float64(w))) {
					t.Fatalf("%s n=%d: [%d] = %v, want %v", what, n, i, got[i], w)
				}
			}
		}
		out := make([]float32, n)
		Hardswish(out, a)
		check("hardswish", out, func(i int) float32 {
			x := float64(a[i])
			return float32(x * math.Min(math.Max(x+3, 0), 6) / 6)
		})
		Mul(out, a, b)
		check("mul", out, func(i int) float32 { return a[i] * b[i] })
		Add(out, a, b)
		check("add", out, func(i int) float32 { return a[i] + b[i] })
		mx := append([]float32(nil), b[:n]...)
		if n > 5 {
			mx[5] = float32(math.NaN()) // a NaN already in dst stays
		}
		mx0 := append([]float32(nil), mx...)
		MaxInto(mx, a)
		check("max", mx, func(i int) float32 {
			if mx0[i] != mx0[i] || a[i] != a[i] {
				return float32(math.NaN())
			}
			return max(mx0[i], a[i])
		})
		in := append([]float32(nil), a...)
		Add(in, in, b) // in place
		check("add in place", in, func(i int) float32 { return a[i] + b[i] })
	}
}
