package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// NaN and infinity through every kernel set this machine has (UseISA): the class of each result
// (NaN, +Inf, -Inf, finite) must be XNNPACK's. Finite inputs stay small, so sums of finite terms
// cannot overflow and the class of a result does not depend on the order of the sum.

var (
	nan  = float32(math.NaN())
	pinf = float32(math.Inf(1))
	ninf = float32(math.Inf(-1))
)

// eachISA runs f once per kernel set, with that set selected.
func eachISA(t *testing.T, f func(t *testing.T)) {
	for _, isa := range ISAs() {
		t.Run(isa, func(t *testing.T) {
			restore, err := UseISA(isa)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			f(t)
		})
	}
}

// sameClass reports whether got matches want: both NaN, equal infinities, or finite and within
// tol of each other.
func sameClass(got float32, want float64, tol float64) bool {
	g := float64(got)
	switch {
	case math.IsNaN(want) || math.IsNaN(g):
		return math.IsNaN(want) && math.IsNaN(g)
	case math.IsInf(want, 0) || math.IsInf(g, 0):
		return g == want
	}
	return math.Abs(g-want) <= tol*max(1, math.Abs(want))
}

// xnnClamp is XNNPACK's clamp of a GEMM, convolution or clamp node: a NaN stays NaN.
func xnnClamp(v, lo, hi float64) float64 {
	if math.IsNaN(v) {
		return v
	}
	return math.Min(math.Max(v, float64(lo)), float64(hi))
}

// specials sprinkles NaN and infinities over v at a rate of about 1 in every.
func specials(r *rand.Rand, v []float32, every int) {
	for i := range v {
		switch r.IntN(every) {
		case 0:
			v[i] = nan
		case 1:
			v[i] = pinf
		case 2:
			v[i] = ninf
		}
	}
}

var clampRanges = [][2]float32{{ninf, pinf}, {0, pinf}, {0, 6}, {-1, 1}, {ninf, 0.25}}

func TestClampNaN(t *testing.T) {
	eachISA(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(31, 32))
		for _, n := range []int{1, 7, 8, 9, 16, 23, 40} {
			for _, rg := range clampRanges {
				d := randSlice(r, n)
				specials(r, d, 4)
				in := append([]float32(nil), d...)
				Clamp(d, rg[0], rg[1])
				for i, v := range d {
					if want := xnnClamp(float64(in[i]), float64(rg[0]), float64(rg[1])); !sameClass(v, want, 0) {
						t.Fatalf("n=%d range %v: clamp(%v) = %v, want %v", n, rg, in[i], v, want)
					}
				}
			}
		}
	})
}

// TestGemmBiasNaN: NaN and infinities in A and in the bias through every row count of a tile,
// full and partial panels and each clamp range: a NaN product or bias gives a NaN output whatever
// the range, +Inf and -Inf together give NaN, one infinity alone keeps its sign before the clamp.
func TestGemmBiasNaN(t *testing.T) {
	eachISA(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(33, 34))
		for _, sh := range []struct{ m, n, k int }{{1, 16, 5}, {3, 32, 9}, {6, 16, 7}, {7, 40, 12}, {14, 32, 3}, {15, 48, 20}, {29, 33, 11}} {
			for _, rg := range clampRanges {
				a, w, bias := randSlice(r, sh.m*sh.k), randSlice(r, sh.k*sh.n), randSlice(r, sh.n)
				specials(r, a, 2*sh.k) // about one special in every two rows
				specials(r, bias, 10)
				p, err := PackB(w, sh.k, sh.n, sh.n)
				if err != nil {
					t.Fatal(err)
				}
				c := make([]float32, sh.m*sh.n)
				p.GemmBias(sh.m, a, sh.k, bias, c, sh.n, rg[0], rg[1])
				for i := 0; i < sh.m; i++ {
					for j := 0; j < sh.n; j++ {
						want := float64(bias[j])
						for q := 0; q < sh.k; q++ {
							want += float64(a[i*sh.k+q]) * float64(w[q*sh.n+j])
						}
						want = xnnClamp(want, float64(rg[0]), float64(rg[1]))
						if got := c[i*sh.n+j]; !sameClass(got, want, 1e-4) {
							t.Fatalf("%dx%dx%d range %v: c[%d,%d] = %v, want %v", sh.m, sh.n, sh.k, rg, i, j, got, want)
						}
					}
				}
			}
		}
	})
}

// TestDepthwiseNaN runs depthwise convolutions with NaN and infinities in the input through the
// indirection table and, with the geometry set, the register-weights kernels for interior
// windows.
func TestDepthwiseNaN(t *testing.T) {
	eachISA(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(35, 36))
		for _, c := range []int{8, 16, 19, 64, 72} {
			for _, k := range []int{3, 5} {
				for _, geom := range []bool{false, true} {
					const H, W = 7, 9
					pad := k / 2
					x := randSlice(r, H*W*c)
					specials(r, x, 25)
					w, bias := randSlice(r, k*k*c), randSlice(r, c)
					offs := make([]int32, H*W*k*k)
					for oh, i := 0, 0; oh < H; oh++ {
						for ow := 0; ow < W; ow++ {
							for kh := 0; kh < k; kh++ {
								for kw := 0; kw < k; kw++ {
									ih, iw := oh-pad+kh, ow-pad+kw
									offs[i] = -1
									if ih >= 0 && ih < H && iw >= 0 && iw < W {
										offs[i] = int32((ih*W + iw) * c)
									}
									i++
								}
							}
						}
					}
					d, err := NewDWTaps(offs, H*W, k*k, c, len(x))
					if err != nil {
						t.Fatal(err)
					}
					if geom && !d.SetGeometry(DWGeometry{N: 1, H: H, W: W, C: c, KH: k, KW: k, SH: 1, SW: 1, PT: pad, PL: pad, OH: H, OW: W}) {
						t.Fatal("geometry refused")
					}
					for _, rg := range clampRanges {
						out := make([]float32, H*W*c)
						if err := d.Depthwise(out, x, 0, H*W, w, c, bias, make([]float32, c), rg[0], rg[1]); err != nil {
							t.Fatal(err)
						}
						for p := 0; p < H*W; p++ {
							for ch := 0; ch < c; ch++ {
								want := float64(bias[ch])
								for tp := 0; tp < k*k; tp++ {
									if o := offs[p*k*k+tp]; o >= 0 {
										want += float64(x[int(o)+ch]) * float64(w[tp*c+ch])
									}
								}
								want = xnnClamp(want, float64(rg[0]), float64(rg[1]))
								if got := out[p*c+ch]; !sameClass(got, want, 1e-4) {
									t.Fatalf("c=%d k=%d geometry %v range %v: out[%d,%d] = %v, want %v", c, k, geom, rg, p, ch, got, want)
								}
							}
						}
					}
				}
			}
		}
	})
}

// TestMaxPool9 checks the vector fold against the scalar one on windows full of NaN and
// infinities (bit for bit, NaN for NaN), and the scalar one on windows whose results the official
// runtime gave (testdata/nan/ops/pool: a 2x2 window's taps are (0,0), (1,0), (0,1), (1,1), the
// missing five repeat the first).
func TestMaxPool9(t *testing.T) {
	for _, tc := range []struct {
		taps []float32 // the window's taps in XNNPACK's order; fewer than 9 repeat taps[0]
		want float32
	}{
		{[]float32{0.13, nan, nan, 0.07}, 0.13},    // a NaN behind the first tap drops
		{[]float32{nan, -0.23, -0.28, pinf}, ninf}, // a NaN first tap survives the tree, then max(NaN, lo) = lo
		{[]float32{pinf, nan, nan, 1.61}, pinf},
		{[]float32{-0.30, pinf, nan, -1.85}, pinf},
		{[]float32{1, 2, 3, 4, 5, 6, 7, 8, 9}, 9},
		{[]float32{1, 2, nan, 4, 5, 6, 7, 8, 9}, 9},
		{[]float32{nan, nan, nan, nan}, ninf},
	} {
		var taps [9][]float32
		for i := range taps {
			v := tc.taps[0]
			if i < len(tc.taps) {
				v = tc.taps[i]
			}
			taps[i] = []float32{v}
		}
		out := []float32{0}
		maxPool9Go(out, &taps, true, ninf, pinf)
		if !sameClass(out[0], float64(tc.want), 0) {
			t.Errorf("window %v: %v, want %v", tc.taps, out[0], tc.want)
		}
	}
	eachISA(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(37, 38))
		for _, n := range []int{1, 8, 13, 16, 64, 67} {
			for _, first := range []bool{true, false} {
				for _, rg := range clampRanges {
					var taps [9][]float32
					for i := range taps {
						taps[i] = randSlice(r, n+i)
						specials(r, taps[i], 3)
					}
					prev := randSlice(r, n)
					specials(r, prev, 3)
					got, want := append([]float32(nil), prev...), append([]float32(nil), prev...)
					MaxPool9(got, &taps, first, rg[0], rg[1])
					maxPool9Go(want, &taps, first, rg[0], rg[1])
					for c := range got {
						if !sameClass(got[c], float64(want[c]), 0) {
							t.Fatalf("n=%d first=%v range %v: [%d] = %v, want %v", n, first, rg, c, got[c], want[c])
						}
					}
				}
			}
		}
	})
}

// TestSumRowsNaN: a global average pool's column sums keep NaN, and +Inf plus -Inf is NaN.
func TestSumRowsNaN(t *testing.T) {
	eachISA(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(39, 40))
		for _, n := range []int{3, 16, 21, 64} {
			rows := 9
			x := randSlice(r, rows*n)
			specials(r, x, 12)
			acc := make([]float32, n)
			if !SumRows(acc, x, rows, n) {
				t.Fatal("refused")
			}
			for c := range acc {
				want := 0.0
				for k := 0; k < rows; k++ {
					want += float64(x[k*n+c])
				}
				if !sameClass(acc[c], want, 1e-4) {
					t.Fatalf("n=%d: acc[%d] = %v, want %v", n, c, acc[c], want)
				}
			}
		}
	})
}
