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
			x := float64(a[i]) // XNNPACK's formula, with its float32 1/6
			return float32(x * math.Min(math.Max(x*float64(float32(1.0/6))+0.5, 0), 1))
		})
		Mul(out, a, b)
		check("mul", out, func(i int) float32 { return a[i] * b[i] })
		Add(out, a, b)
		check("add", out, func(i int) float32 { return a[i] + b[i] })
		in := append([]float32(nil), a...)
		Add(in, in, b) // in place
		check("add in place", in, func(i int) float32 { return a[i] + b[i] })
	}
}

// TestStridedCopy checks runs shorter than, equal to and longer than a vector, with strides that
// leave gaps (which must stay untouched) and out-of-range requests (which must copy nothing), on
// every kernel set the CPU has.
func TestStridedCopy(t *testing.T) {
	for _, isa := range ISAs() {
		t.Run(isa, func(t *testing.T) {
			restore, err := UseISA(isa)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			checkStridedCopy(t)
		})
	}
}

func checkStridedCopy(t *testing.T) {
	for _, run := range []int{1, 3, 8, 9, 16, 17, 21, 40} {
		for _, count := range []int{0, 1, 5} {
			ds, ss := run+3, run*2+1
			src := make([]float32, max((count-1)*ss+run, 0)+2)
			for i := range src {
				src[i] = float32(i + 1)
			}
			dst := make([]float32, max((count-1)*ds+run, 0)+5)
			for i := range dst {
				dst[i] = -1
			}
			if !StridedCopy(dst, ds, src, ss, count, run) {
				t.Fatalf("run %d count %d: refused", run, count)
			}
			for i := range dst {
				want := float32(-1)
				if r, o := i/ds, i%ds; r < count && o < run {
					want = src[r*ss+o]
				}
				if dst[i] != want {
					t.Fatalf("run %d count %d: dst[%d] = %v, want %v", run, count, i, dst[i], want)
				}
			}
			if count > 0 && StridedCopy(dst[:(count-1)*ds+run-1], ds, src, ss, count, run) {
				t.Fatalf("run %d count %d: copied past dst", run, count)
			}
		}
	}
}

// TestSumRows checks the column sum over odd and even row counts and masked channel tails on
// every kernel set the CPU has, and that the assembly ones (AVX-512, AVX2) agree bit for bit.
func TestSumRows(t *testing.T) {
	sums := map[string][]float32{}
	for _, isa := range ISAs() {
		t.Run(isa, func(t *testing.T) {
			restore, err := UseISA(isa)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			sums[isa] = checkSumRows(t)
		})
	}
	if a, b := sums["avx512"], sums["avx2"]; a != nil && b != nil {
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				t.Fatalf("sum %d: avx512 %v, avx2 %v", i, a[i], b[i])
			}
		}
	}
}

// checkSumRows returns every sum it computed, in order.
func checkSumRows(t *testing.T) (all []float32) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{1, 3, 8, 16, 17, 40, 96, 100} {
		for _, rows := range []int{0, 1, 2, 7, 50} {
			stride := n + 5
			x := randSlice(r, max(rows*stride, 1))
			acc := randSlice(r, n)
			want := make([]float64, n)
			for c := range want {
				want[c] = float64(acc[c])
				for k := 0; k < rows; k++ {
					want[c] += float64(x[k*stride+c])
				}
			}
			if !SumRows(acc, x, rows, stride) {
				t.Fatalf("n %d rows %d: refused", n, rows)
			}
			for c := range acc {
				if math.Abs(float64(acc[c])-want[c]) > 1e-4 {
					t.Fatalf("n %d rows %d: acc[%d] = %v, want %v", n, rows, c, acc[c], want[c])
				}
			}
			all = append(all, acc...)
		}
	}
	if SumRows(make([]float32, 8), make([]float32, 20), 3, 8) {
		t.Error("SumRows read past x")
	}
	return all
}
