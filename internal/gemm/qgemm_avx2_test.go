package gemm

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQS8Extremes runs every int8 kernel set over the shape classes the tiles split by (rows 1
// to 8, so every row chunk and its tail; 1 to 5 panels with every partial last panel; K not a
// multiple of 4) with the extreme operands: codes and weights at ±128/127, zero points at both
// ends of int8, scales that saturate the output range and ones below one code, against the
// unpacked definition and the raw sums.
func TestQS8Extremes(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	type ext struct {
		name     string
		code     func() int8
		weight   func() int32
		xzp, yzp int32
		scale    float32
	}
	exts := []ext{
		{"min", func() int8 { return -128 }, func() int32 { return -128 }, 127, -128, 1e-6},
		{"max", func() int8 { return 127 }, func() int32 { return -128 }, -128, 127, 1e-7},
		{"mixed", func() int8 { return int8(r.IntN(2)*255 - 128) }, func() int32 { return int32(r.IntN(2)*255 - 128) }, -128, 0, 0.02},
		{"sat", func() int8 { return int8(r.IntN(256) - 128) }, func() int32 { return int32(r.IntN(256) - 128) }, 5, -3, 3},
		{"tiny", func() int8 { return int8(r.IntN(256) - 128) }, func() int32 { return int32(r.IntN(256) - 128) }, -7, 9, 1e-9},
	}
	for _, isa := range Int8ISAs() {
		restore, err := UseInt8ISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range exts {
			for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 8} {
				for _, kn := range [][2]int{{1, 1}, {3, 15}, {5, 16}, {8, 17}, {13, 31}, {36, 47}, {64, 64}, {131, 79}, {1030, 33}} {
					k, n := kn[0], kn[1]
					c := qCase{m, k, n, k + m%3}
					a := make([]int8, (m-1)*c.lda+k)
					for i := range a {
						a[i] = e.code()
					}
					w := make([]int32, k*n)
					for i := range w {
						w[i] = e.weight()
					}
					bias := make([]int32, n)
					scale := make([]float32, n)
					for o := range bias {
						bias[o] = int32(r.IntN(1<<20) - 1<<19)
						scale[o] = e.scale * (0.5 + r.Float32())
					}
					p, err := PackQ8(w, k, n)
					if err != nil {
						t.Fatal(err)
					}
					q, err := p.NewQS8(bias, scale, e.xzp, e.yzp, -128, 127)
					if err != nil {
						t.Fatal(err)
					}
					want := naiveQS8(c, a, w, bias, scale, e.xzp, e.yzp, -128, 127)
					got := make([]int8, m*n)
					if err := q.Run(m, a, c.lda, got, n, 0, p.Panels()); err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%s/%s/%dx%dx%d: got %v\nwant %v", isa, e.name, m, k, n, got, want)
					}
					// Acc with a bias (padded to whole panels): bias + Σ (x+128)·w.
					abias := make([]int32, p.Panels()*QPanel)
					for o := range abias {
						abias[o] = int32(r.Uint32())
					}
					acc := make([]int32, m*n)
					if err := p.Acc(m, a, c.lda, abias, acc, n, 0, p.Panels()); err != nil {
						t.Fatal(err)
					}
					for i, v := range acc {
						rr, o := i/n, i%n
						s := abias[o]
						for kk := range k {
							s += (int32(a[rr*c.lda+kk]) + 128) * w[kk*n+o]
						}
						if v != s {
							t.Fatalf("%s/%s/%dx%dx%d: acc [%d, %d] = %d, want %d", isa, e.name, m, k, n, rr, o, v, s)
						}
					}
				}
			}
		}
		restore()
	}
}

// TestQDWExtremes: the depthwise kernels at the ends of int8 (codes, weights, zero points)
// with saturating and vanishing scales, every channel tail of 8 and 32, against the definition.
func TestQDWExtremes(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	for _, isa := range Int8ISAs() {
		restore, err := UseInt8ISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []struct {
			code, weight int32 // 0: random
			xzp, yzp     int32
			scale        float32
		}{{-128, -128, 127, -128, 1e-6}, {127, -128, -128, 127, 1e-7}, {0, 0, -128, 0, 3}, {0, 0, 127, 5, 1e-9}, {-128, 127, 0, -1, 0.01}} {
			pick := func(v int32) int32 {
				if v != 0 {
					return v
				}
				return int32(r.IntN(256) - 128)
			}
			for _, c := range []int{1, 5, 8, 13, 16, 31, 32, 39, 64, 72, 100} {
				taps, npix, pixels := 9, 7, 4
				x := make([]int8, pixels*c)
				for i := range x {
					x[i] = int8(pick(e.code))
				}
				w := make([]int32, taps*c)
				for i := range w {
					w[i] = pick(e.weight)
				}
				bias := make([]int32, c)
				scale := make([]float32, c)
				for i := range bias {
					bias[i] = int32(r.IntN(1<<20) - 1<<19)
					scale[i] = e.scale * (0.5 + r.Float32())
				}
				offs := make([]int32, npix*taps)
				for i := range offs {
					offs[i] = int32(r.IntN(pixels+1)-1) * int32(c)
					if offs[i] < 0 {
						offs[i] = -1
					}
				}
				q, err := NewQDW(w, bias, scale, taps, c, e.xzp, e.yzp, -128, 127)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]int8, npix*c)
				if err := q.Run(x, offs, npix, got, c); err != nil {
					t.Fatal(err)
				}
				want := make([]int8, npix*c)
				for i := range npix {
					for ch := range c {
						acc := bias[ch]
						for tp := range taps {
							xv := e.xzp
							if o := offs[i*taps+tp]; o >= 0 {
								xv = int32(x[int(o)+ch])
							}
							acc += (xv - e.xzp) * w[tp*c+ch]
						}
						want[i*c+ch] = int8(requantFP32(acc, scale[ch], float32(-128-e.yzp), float32(127-e.yzp), e.yzp))
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s/%+v/c%d: got %v\nwant %v", isa, e, c, got, want)
				}
			}
		}
		restore()
	}
}

// BenchmarkQDW: a MobileNetV2 depthwise layer (3x3, 144 channels, 56x56 pixels) on every
// int8 kernel set.
func BenchmarkQDW(b *testing.B) {
	const c, taps, npix = 144, 9, 56 * 56
	r := rand.New(rand.NewPCG(7, 8))
	w := make([]int32, taps*c)
	for i := range w {
		w[i] = int32(r.IntN(256) - 128)
	}
	q, _ := NewQDW(w, nil, make([]float32, c), taps, c, 3, -2, -128, 127)
	x := randCodes(r, npix*c)
	offs := make([]int32, npix*taps)
	for i := range offs {
		offs[i] = int32(r.IntN(npix)) * c
	}
	out := make([]int8, npix*c)
	for _, isa := range Int8ISAs() {
		b.Run(isa, func(b *testing.B) {
			restore, _ := UseInt8ISA(isa)
			defer restore()
			b.SetBytes(npix * c * taps)
			for b.Loop() {
				_ = q.Run(x, offs, npix, out, c)
			}
		})
	}
}

func BenchmarkLUT8(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	var tab [256]int8
	for i := range tab {
		tab[i] = int8(r.IntN(256) - 128)
	}
	l := NewLUT8(tab)
	src := randCodes(r, 112*112*32)
	dst := make([]int8, len(src))
	for _, isa := range Int8ISAs() {
		b.Run(isa, func(b *testing.B) {
			restore, _ := UseInt8ISA(isa)
			defer restore()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				l.Run(dst, src)
			}
		})
	}
}
