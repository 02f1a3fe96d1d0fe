package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestGroupConv holds every kernel set's grouped convolution to the definition over random
// geometries (padding, strides, group widths around the 8-channel block, pixel ranges around
// the 8-pixel block), NaN outputs and the clamp included.
func TestGroupConv(t *testing.T) {
	for _, isa := range ISAs() {
		restore, err := UseISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(7, 8))
		for it := 0; it < 150; it++ {
			G, gin, gout := 1+r.IntN(5), 1+r.IntN(12), 1+r.IntN(19)
			if it%3 == 0 {
				gin, gout = 8, 8
			}
			N, H, W, K, S, P := 1+r.IntN(2), 1+r.IntN(9), 1+r.IntN(9), 1+r.IntN(3), 1+r.IntN(2), r.IntN(2)
			OH, OW := (H+2*P-K)/S+1, (W+2*P-K)/S+1
			if OH < 1 || OW < 1 {
				continue
			}
			C, OC, nt := G*gin, G*gout, K*K
			x := make([]float32, N*H*W*C)
			for i := range x {
				x[i] = float32(r.NormFloat64())
			}
			if it%10 == 0 {
				x[r.IntN(len(x))] = float32(math.NaN())
			}
			w := make([]float32, OC*nt*gin)
			for i := range w {
				w[i] = float32(r.NormFloat64())
			}
			var bias []float32
			if r.IntN(2) == 0 {
				bias = make([]float32, OC)
				for i := range bias {
					bias[i] = float32(r.NormFloat64())
				}
			}
			offs := make([]int32, N*OH*OW*nt)
			i := 0
			for b := 0; b < N; b++ {
				for oh := 0; oh < OH; oh++ {
					for ow := 0; ow < OW; ow++ {
						for kh := 0; kh < K; kh++ {
							for kw := 0; kw < K; kw++ {
								ih, iw := oh*S-P+kh, ow*S-P+kw
								offs[i] = -1
								if ih >= 0 && ih < H && iw >= 0 && iw < W {
									offs[i] = int32(((b*H+ih)*W + iw) * C)
								}
								i++
							}
						}
					}
				}
			}
			tab, err := NewDWTaps(offs, N*OH*OW, nt, C, len(x))
			if err != nil {
				t.Fatal(err)
			}
			f, err := PackGroupFilter(w, bias, G, gout, nt, gin)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := float32(math.Inf(-1)), float32(math.Inf(1))
			if it%4 == 1 {
				lo, hi = -1, 1.5
			}
			npix := N * OH * OW
			p0 := r.IntN(npix)
			p1 := p0 + r.IntN(npix-p0+1)
			ldo := OC + r.IntN(3)
			out := make([]float32, max(0, (p1-p0)*ldo))
			for i := range out {
				out[i] = -99
			}
			if err := tab.GroupConv(out, ldo, x, p0, p1, f, make([]float32, C), lo, hi); err != nil {
				t.Fatal(err)
			}
			for p := p0; p < p1; p++ {
				for o := 0; o < OC; o++ {
					g := o / gout
					acc := 0.0
					if bias != nil {
						acc = float64(bias[o])
					}
					for tp := 0; tp < nt; tp++ {
						v := offs[p*nt+tp]
						if v < 0 {
							continue
						}
						for i := 0; i < gin; i++ {
							acc += float64(x[int(v)+g*gin+i]) * float64(w[(o*nt+tp)*gin+i])
						}
					}
					want := float32(acc)
					if lo > want {
						want = lo
					}
					if hi < want {
						want = hi
					}
					got := out[(p-p0)*ldo+o]
					if math.IsNaN(float64(want)) != math.IsNaN(float64(got)) || math.Abs(float64(got-want)) > 1e-4*(1+math.Abs(float64(want))) {
						t.Fatalf("%s it %d G%d gin%d gout%d %dx%d k%d s%d p%d: out[%d][%d] = %v, want %v", isa, it, G, gin, gout, H, W, K, S, P, p, o, got, want)
					}
				}
				for o := OC; o < ldo; o++ {
					if out[(p-p0)*ldo+o] != -99 {
						t.Fatalf("%s: pixel %d's padding column %d written", isa, p, o)
					}
				}
			}
		}
		restore()
	}
	if _, err := PackGroupFilter(make([]float32, 10), nil, 2, 3, 1, 2); err == nil {
		t.Error("a filter of the wrong size was packed")
	}
}

func BenchmarkGroupConv(b *testing.B) {
	// regnet_y_400mf's 14×14 grouped layer: 26 groups of 8, 3×3.
	const H, W, G, gin, K = 14, 14, 26, 8, 3
	C := G * gin
	x := make([]float32, H*W*C)
	offs := make([]int32, H*W*K*K)
	i := 0
	for oh := 0; oh < H; oh++ {
		for ow := 0; ow < W; ow++ {
			for kh := 0; kh < K; kh++ {
				for kw := 0; kw < K; kw++ {
					ih, iw := oh-1+kh, ow-1+kw
					offs[i] = -1
					if ih >= 0 && ih < H && iw >= 0 && iw < W {
						offs[i] = int32((ih*W + iw) * C)
					}
					i++
				}
			}
		}
	}
	tab, _ := NewDWTaps(offs, H*W, K*K, C, len(x))
	f, _ := PackGroupFilter(make([]float32, C*K*K*gin), nil, G, gin, K*K, gin)
	out := make([]float32, H*W*C)
	for _, isa := range ISAs() {
		b.Run(fmt.Sprint(isa), func(b *testing.B) {
			restore, _ := UseISA(isa)
			defer restore()
			for b.Loop() {
				tab.GroupConv(out, C, x, 0, H*W, f, make([]float32, C), float32(math.Inf(-1)), float32(math.Inf(1)))
			}
			b.ReportMetric(float64(H*W*C*K*K*gin)*2*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
}
