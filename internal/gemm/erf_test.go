package gemm

import (
	"math"
	"testing"
)

// TestErf holds Erf to the float64 math.Erf rounded to float32 (what the portable kernel
// returns) over a sweep of float32 values from denormals to past 4 and a few specials: at most
// one ulp apart anywhere, and equal in all but a handful.
func TestErf(t *testing.T) {
	worst := 0.0
	for x := 0.0; x < 4; x += 1.0 / 4096 {
		if d := math.Abs(erf64(x) - math.Erf(x)); d > worst {
			worst = d
		}
	}
	if worst > 1e-11 {
		t.Errorf("float64 evaluation is %.3g from math.Erf, want within 1e-11", worst)
	}
	var xs []float32
	for b := uint32(1); b < 0x40900000; b += 8191 { // 0 < x < 4.5, bit patterns
		x := math.Float32frombits(b)
		xs = append(xs, x, -x)
	}
	xs = append(xs, 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		0.5, 4, math.MaxFloat32, math.SmallestNonzeroFloat32)
	results := map[string][]float32{}
	for _, isa := range ISAs() {
		restore, err := UseISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float32, len(xs))
		Erf(got, xs)
		restore()
		erfCheck(t, isa, xs, got, worst)
		results[isa] = got
	}
	// The AVX2 kernel does erf512's operations in its order: the same floats.
	if a, b := results["avx512"], results["avx2"]; a != nil && b != nil {
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				t.Fatalf("erf(%v): avx512 %v, avx2 %v", xs[i], a[i], b[i])
			}
		}
	}
}

func erfCheck(t *testing.T, isa string, xs, got []float32, worst float64) {
	differ := 0
	for i, x := range xs {
		want := float32(math.Erf(float64(x)))
		g := got[i]
		if math.IsNaN(float64(want)) {
			if !math.IsNaN(float64(g)) {
				t.Fatalf("%s: erf(%v) = %v, want NaN", isa, x, g)
			}
			continue
		}
		if math.Float32bits(g) == math.Float32bits(want) {
			continue
		}
		differ++
		if d := int64(math.Float32bits(g)) - int64(math.Float32bits(want)); d > 1 || d < -1 || math.Signbit(float64(g)) != math.Signbit(float64(want)) {
			t.Fatalf("%s: erf(%v) = %v, want %v", isa, x, g, want)
		}
	}
	if differ > len(xs)/10000 {
		t.Errorf("%s: %d of %d values one ulp from math.Erf's, want at most %d", isa, differ, len(xs), len(xs)/10000)
	}
	t.Logf("%s: %d of %d values differ by one ulp; float64 error %.3g", isa, differ, len(xs), worst)
}

func BenchmarkErf(b *testing.B) {
	x := make([]float32, 4096)
	for i := range x {
		x[i] = float32(i-2048) / 512
	}
	y := make([]float32, len(x))
	for _, isa := range ISAs() {
		b.Run("Erf/"+isa, func(b *testing.B) {
			restore, _ := UseISA(isa)
			defer restore()
			for b.Loop() {
				Erf(y, x)
			}
		})
	}
	b.Run("math.Erf", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				y[i] = float32(math.Erf(float64(v)))
			}
		}
	})
}
