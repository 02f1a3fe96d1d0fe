package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

func naive(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			s := float64(c[i*ldc+j])
			for kk := 0; kk < k; kk++ {
				s += float64(a[i*lda+kk]) * float64(b[kk*ldb+j])
			}
			c[i*ldc+j] = float32(s)
		}
	}
}

func randSlice(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// TestPackedAgainstNaive covers full and partial tiles in both dimensions, strided A and C,
// and accumulation into existing C values; the build tag purego runs the same test on the
// portable kernel.
func TestPackedAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, s := range []struct{ m, n, k, lda, ldc int }{
		{1, 1, 1, 1, 1}, {6, 16, 8, 8, 16}, {7, 17, 5, 9, 20}, {12, 32, 64, 64, 32}, {5, 3, 33, 40, 3},
		{13, 40, 100, 100, 41}, {64, 24, 144, 144, 24}, {0, 5, 5, 5, 5}, {3, 5, 0, 1, 5},
	} {
		a := randSlice(r, max(s.m*s.lda, 1))
		b := randSlice(r, max(s.k*s.n, 1))
		c := randSlice(r, max(s.m*s.ldc, 1))
		c0 := append([]float32(nil), c...)
		want := append([]float32(nil), c...)
		naive(s.m, s.n, s.k, a, s.lda, b, s.n, want, s.ldc)
		p, err := PackB(b, s.k, s.n, s.n)
		if err != nil {
			t.Fatal(err)
		}
		p.Gemm(s.m, a, s.lda, c, s.ldc)
		for i := range c {
			if d := math.Abs(float64(c[i] - want[i])); d > 1e-4*math.Max(1, math.Abs(float64(want[i]))) {
				t.Fatalf("%+v: c[%d] = %v, want %v", s, i, c[i], want[i])
			}
		}
		// Gemm (the blocked scalar path) agrees too.
		Gemm(s.m, s.n, s.k, a, s.lda, b, s.n, c0, s.ldc)
		for i := range c0 {
			if d := math.Abs(float64(c0[i] - want[i])); d > 1e-4*math.Max(1, math.Abs(float64(want[i]))) {
				t.Fatalf("%+v: Gemm c[%d] = %v, want %v", s, i, c0[i], want[i])
			}
		}
	}
	checkGemmBias(t, r)
	if _, err := PackB(make([]float32, 5), 2, 3, 3); err == nil {
		t.Error("PackB accepted 5 values for a 2x3 matrix")
	}
}

func benchPacked(b *testing.B, m, n, k int) {
	r := rand.New(rand.NewPCG(1, 2))
	a, w, c := randSlice(r, m*k), randSlice(r, k*n), make([]float32, m*n)
	p, _ := PackB(w, k, n, n)
	for i := 0; i < b.N; i++ {
		p.Gemm(m, a, k, c, n)
	}
	reportGFLOPs(b, float64(2*m*n*k))
}

// Shapes of MobileNetV2's 1x1 convolutions (pixels x in -> out).
func BenchmarkPacked_3136x96x24(b *testing.B)  { benchPacked(b, 3136, 24, 96) }
func BenchmarkPacked_784x192x32(b *testing.B)  { benchPacked(b, 784, 32, 192) }
func BenchmarkPacked_49x960x320(b *testing.B)  { benchPacked(b, 49, 320, 960) }
func BenchmarkPacked_256x256x256(b *testing.B) { benchPacked(b, 256, 256, 256) }

func TestClampAndMulAdd(t *testing.T) {
	for _, n := range []int{0, 3, 8, 21} {
		d := make([]float32, n)
		for i := range d {
			d[i] = float32(i) - 5
		}
		if n > 2 {
			d[2] = float32(math.NaN())
		}
		Clamp(d, -1, 4)
		for i, x := range d {
			want := math.Min(math.Max(float64(i)-5, -1), 4)
			if i == 2 {
				want = math.NaN() // NaN stays NaN (XNNPACK's clamp)
			}
			if float64(x) != want && !(math.IsNaN(want) && x != x) {
				t.Fatalf("n=%d: clamp[%d] = %v, want %v", n, i, x, want)
			}
		}
		acc, x, w := make([]float32, n), make([]float32, n+1), make([]float32, n+2)
		for i := range acc {
			acc[i], x[i], w[i] = 1, float32(i), 2
		}
		MulAdd(acc, x, w)
		for i, v := range acc {
			if v != 1+2*float32(i) {
				t.Fatalf("n=%d: muladd[%d] = %v", n, i, v)
			}
		}
	}
}

// checkGemmBias: C = clamp(bias + A·B) over full and partial tiles, with and without a bias.
func checkGemmBias(t *testing.T, r *rand.Rand) {
	t.Helper()
	shapes := []struct{ m, n, k, lda, ldc int }{{6, 16, 8, 8, 16}, {7, 17, 5, 9, 20}, {13, 40, 100, 100, 41}, {2, 3, 0, 1, 3},
		{28, 16, 16, 16, 16}, {30, 48, 37, 40, 50}, {45, 33, 200, 200, 33},
		{703, 50, 100, 101, 52},                              // A past panelsOuterMaxA: row tiles outside
		{742, 64, 96, 96, 67},                                // the same, whole panels only, a 4-row last tile
		{260, 520, 520, 520, 520},                            // both large: panels outside
		{45, 600, 1100, 1101, 603}, {17, 70, 1030, 1030, 70}} // long K
	// Every row count of a short tile (1 to 15 and past two tiles), with K odd, even and a multiple
	// of the split kernels' unroll, and column tails.
	for m := 1; m <= 31; m += 1 + m/8 {
		for _, k := range []int{1, 2, 3, 4, 7, 64} {
			shapes = append(shapes, struct{ m, n, k, lda, ldc int }{m, 16 + m%5*9, k, k + m%2, 16 + m%5*9 + 1})
		}
	}
	for _, s := range shapes {
		a := randSlice(r, max(s.m*s.lda, 1))
		b := randSlice(r, max(s.k*s.n, 1))
		for _, bias := range [][]float32{nil, randSlice(r, s.n)} {
			p, _ := PackB(b, s.k, s.n, s.n)
			c := randSlice(r, s.m*s.ldc) // overwritten, not accumulated
			p.GemmBias(s.m, a, s.lda, bias, c, s.ldc, -0.5, 1)
			if np := p.Panels(); np > 1 {
				// Columns split at a panel boundary give the same result.
				c2 := randSlice(r, s.m*s.ldc)
				p.GemmBiasPanels(s.m, a, s.lda, bias, c2, s.ldc, -0.5, 1, 0, 1)
				p.GemmBiasPanels(s.m, a, s.lda, bias, c2, s.ldc, -0.5, 1, 1, np)
				for i := 0; i < s.m; i++ {
					for j := 0; j < s.n; j++ {
						if c2[i*s.ldc+j] != c[i*s.ldc+j] {
							t.Fatalf("GemmBiasPanels %+v: c[%d,%d] = %v, GemmBias %v", s, i, j, c2[i*s.ldc+j], c[i*s.ldc+j])
						}
					}
				}
			}
			for i := 0; i < s.m; i++ {
				for j := 0; j < s.n; j++ {
					w := 0.0
					if bias != nil {
						w = float64(bias[j])
					}
					for kk := 0; kk < s.k; kk++ {
						w += float64(a[i*s.lda+kk]) * float64(b[kk*s.n+j])
					}
					w = math.Min(math.Max(w, -0.5), 1)
					if d := math.Abs(float64(c[i*s.ldc+j]) - w); d > 1e-4 {
						t.Fatalf("GemmBias %+v bias %v: c[%d,%d] = %v, want %v", s, bias != nil, i, j, c[i*s.ldc+j], w)
					}
				}
			}
		}
	}
}

func benchBias(b *testing.B, m, n, k int) {
	r := rand.New(rand.NewPCG(1, 2))
	a, w, c, bias := randSlice(r, m*k), randSlice(r, k*n), make([]float32, m*n), randSlice(r, n)
	p, _ := PackB(w, k, n, n)
	for i := 0; i < b.N; i++ {
		p.GemmBias(m, a, k, bias, c, n, 0, 6)
	}
	reportGFLOPs(b, float64(2*m*n*k))
}

// MobileNetV2's 1x1 convolutions at 224x224: pixels x in -> out.
func BenchmarkBias_12544x16x96(b *testing.B) { benchBias(b, 12544, 96, 16) }
func BenchmarkBias_3136x144x24(b *testing.B) { benchBias(b, 3136, 24, 144) }
func BenchmarkBias_784x32x192(b *testing.B)  { benchBias(b, 784, 192, 32) }
func BenchmarkBias_196x384x64(b *testing.B)  { benchBias(b, 196, 64, 384) }
func BenchmarkBias_49x960x160(b *testing.B)  { benchBias(b, 49, 160, 960) }
func BenchmarkBias_49x320x1280(b *testing.B) { benchBias(b, 49, 1280, 320) }

// TestDWTaps runs the depthwise indirection kernel (AVX-512, AVX2 or portable) on random tables
// with padding taps, channel counts with 64/16/8 blocks and scalar tails, and pixel sub-ranges.
func TestDWTaps(t *testing.T) { checkDWTaps(t) }

func checkDWTaps(t *testing.T) {
	t.Helper()
	r := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{1, 8, 16, 24, 72, 88, 96, 19, 136, 116, 5, 36} {
		for _, ntaps := range []int{1, 9, 25} {
			npix := 7
			xpix := 11
			x := randSlice(r, xpix*n)
			offs := make([]int32, npix*ntaps)
			for i := range offs {
				if r.IntN(4) == 0 {
					offs[i] = -1
				} else {
					offs[i] = int32(r.IntN(xpix) * n)
				}
			}
			d, err := NewDWTaps(offs, npix, ntaps, n, len(x))
			if err != nil {
				t.Fatal(err)
			}
			wstride := n + 8
			w := randSlice(r, (ntaps-1)*wstride+n)
			bias := randSlice(r, n)
			zero := make([]float32, n)
			for _, span := range [][2]int{{0, npix}, {2, 5}} {
				out := make([]float32, (span[1]-span[0])*n)
				if err := d.Depthwise(out, x, span[0], span[1], w, wstride, bias, zero, -1, 1.5); err != nil {
					t.Fatal(err)
				}
				for p := span[0]; p < span[1]; p++ {
					for c := 0; c < n; c++ {
						want := float64(bias[c])
						for i := 0; i < ntaps; i++ {
							if o := offs[p*ntaps+i]; o >= 0 {
								want += float64(x[int(o)+c]) * float64(w[i*wstride+c])
							}
						}
						want = math.Min(math.Max(want, -1), 1.5)
						if got := out[(p-span[0])*n+c]; math.Abs(float64(got)-want) > 1e-4 {
							t.Fatalf("n=%d taps=%d: out[%d,%d] = %v, want %v", n, ntaps, p, c, got, want)
						}
					}
				}
			}
		}
	}
	if _, err := NewDWTaps([]int32{0, 40}, 1, 2, 8, 40); err == nil {
		t.Error("NewDWTaps accepted an offset past the input")
	}
}

// L1-resident shapes: the kernel alone, against BenchmarkPeakFMA.
func BenchmarkBias_14x128x16(b *testing.B) { benchBias(b, 14, 16, 128) }
func BenchmarkBias_28x128x64(b *testing.B) { benchBias(b, 28, 64, 128) }

// An M=1 classifier: the weights (4 MB) stream from beyond L2 every call.
func BenchmarkBias_1x1024x1000(b *testing.B) { benchBias(b, 1, 1000, 1024) }

// TestDWGeometry runs depthwise convolutions with their geometry set (interior windows through
// the register-weights kernel where there is one, borders through the table) on random shapes,
// pixel sub-ranges that start and end mid-row, and channel counts with masked tails, on every
// kernel set the CPU has.
func TestDWGeometry(t *testing.T) {
	for _, isa := range ISAs() {
		t.Run(isa, func(t *testing.T) {
			restore, err := UseISA(isa)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			checkDWGeometry(t)
		})
	}
}

func checkDWGeometry(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for it := 0; it < 200; it++ {
		k := []int{3, 5, 2}[r.IntN(3)]
		g := DWGeometry{N: 1 + r.IntN(2), H: 1 + r.IntN(12), W: 1 + r.IntN(12), C: []int{8, 16, 24, 72, 3, 40, 12, 116}[r.IntN(8)],
			KH: k, KW: k, SH: 1 + r.IntN(2), SW: 1 + r.IntN(2), PT: r.IntN(k), PL: r.IntN(k)}
		pb, pr := r.IntN(k), r.IntN(k)
		if g.H+g.PT+pb < k || g.W+g.PL+pr < k {
			continue
		}
		g.OH, g.OW = (g.H+g.PT+pb-k)/g.SH+1, (g.W+g.PL+pr-k)/g.SW+1
		n, nt, npix := g.C, k*k, g.N*g.OH*g.OW
		x := randSlice(r, g.N*g.H*g.W*g.C)
		offs := make([]int32, 0, npix*nt)
		for b := 0; b < g.N; b++ {
			for oh := 0; oh < g.OH; oh++ {
				for ow := 0; ow < g.OW; ow++ {
					for kh := 0; kh < k; kh++ {
						for kw := 0; kw < k; kw++ {
							ih, iw := oh*g.SH-g.PT+kh, ow*g.SW-g.PL+kw
							o := int32(-1)
							if ih >= 0 && ih < g.H && iw >= 0 && iw < g.W {
								o = int32(((b*g.H+ih)*g.W + iw) * g.C)
							}
							offs = append(offs, o)
						}
					}
				}
			}
		}
		d, err := NewDWTaps(offs, npix, nt, n, len(x))
		if err != nil {
			t.Fatal(err)
		}
		if !d.SetGeometry(g) {
			t.Fatalf("%+v: geometry refused", g)
		}
		w, bias, zero := randSlice(r, nt*n), randSlice(r, n), make([]float32, n)
		p0 := r.IntN(npix)
		p1 := p0 + 1 + r.IntN(npix-p0)
		if it%3 == 0 {
			p0, p1 = 0, npix
		}
		out := make([]float32, (p1-p0)*n)
		if err := d.Depthwise(out, x, p0, p1, w, n, bias, zero, -2, 2.5); err != nil {
			t.Fatal(err)
		}
		for p := p0; p < p1; p++ {
			for c := 0; c < n; c++ {
				want := float64(bias[c])
				for i := 0; i < nt; i++ {
					if o := offs[p*nt+i]; o >= 0 {
						want += float64(x[int(o)+c]) * float64(w[i*n+c])
					}
				}
				want = math.Min(math.Max(want, -2), 2.5)
				if got := out[(p-p0)*n+c]; math.Abs(float64(got)-want) > 1e-4 {
					t.Fatalf("%+v [%d,%d): out[%d,%d] = %v, want %v", g, p0, p1, p, c, got, want)
				}
			}
		}
	}
}

// ResNet-18's deep 3x3 convolutions as one GEMM over all pixels (K = 9 x channels).
func BenchmarkBias_196x2304x256(b *testing.B) { benchBias(b, 196, 256, 2304) }
func BenchmarkBias_49x4608x512(b *testing.B)  { benchBias(b, 49, 512, 4608) }

// The benchmark suite's transformer layers: BERT-base at sequence 128 (QKV/out projections and
// the MLP), DeiT-tiny's QKV projection over 197 tokens, ResNet-50's 56×56 1×1 expansion.
func BenchmarkBias_128x768x768(b *testing.B)  { benchBias(b, 128, 768, 768) }
func BenchmarkBias_128x768x3072(b *testing.B) { benchBias(b, 128, 3072, 768) }
func BenchmarkBias_128x3072x768(b *testing.B) { benchBias(b, 128, 768, 3072) }
func BenchmarkBias_197x192x576(b *testing.B)  { benchBias(b, 197, 576, 192) }
func BenchmarkBias_3136x64x256(b *testing.B)  { benchBias(b, 3136, 256, 64) }

// BenchmarkDepthwise runs 3x3 / 5x5 depthwise layers of the suite's CNNs (MobileNetV2's 56×56×144,
// ShuffleNetV2's 28×28×116 whose channels are not a multiple of 8, EfficientNet's 5×5 at
// 28×28×240) with their geometry set, on every kernel set the CPU has, timed by thread CPU time
// against the FMA peak (measureAgainstPeak).
func BenchmarkDepthwise(b *testing.B) {
	ks := peakKernels()
	if len(ks) == 0 {
		b.Skip("no assembly FMA loop for this CPU or build (purego / non-amd64 / no FMA)")
	}
	for _, s := range []struct {
		name          string
		h, c, k, strd int
	}{{"mbv2_56x144_3x3", 56, 144, 3, 1}, {"shufflev2_28x116_3x3", 28, 116, 3, 1}, {"effb0_28x240_5x5", 28, 240, 5, 1}} {
		g := DWGeometry{N: 1, H: s.h, W: s.h, C: s.c, KH: s.k, KW: s.k, SH: s.strd, SW: s.strd, PT: s.k / 2, PL: s.k / 2}
		g.OH, g.OW = (g.H+2*g.PT-s.k)/g.SH+1, (g.W+2*g.PL-s.k)/g.SW+1
		nt, npix := s.k*s.k, g.OH*g.OW
		offs := make([]int32, 0, npix*nt)
		for oh := 0; oh < g.OH; oh++ {
			for ow := 0; ow < g.OW; ow++ {
				for kh := 0; kh < s.k; kh++ {
					for kw := 0; kw < s.k; kw++ {
						ih, iw := oh*g.SH-g.PT+kh, ow*g.SW-g.PL+kw
						o := int32(-1)
						if ih >= 0 && ih < g.H && iw >= 0 && iw < g.W {
							o = int32((ih*g.W + iw) * g.C)
						}
						offs = append(offs, o)
					}
				}
			}
		}
		r := rand.New(rand.NewPCG(1, 2))
		x := randSlice(r, g.H*g.W*g.C)
		d, err := NewDWTaps(offs, npix, nt, s.c, len(x))
		if err != nil || !d.SetGeometry(g) {
			b.Fatal(err)
		}
		w, bias, zero, out := randSlice(r, nt*s.c), randSlice(r, s.c), make([]float32, s.c), make([]float32, npix*s.c)
		for _, isa := range ISAs() {
			b.Run(s.name+"/"+isa, func(b *testing.B) {
				restore, _ := UseISA(isa)
				defer restore()
				measureAgainstPeak(b, ks[0], float64(2*npix*nt*s.c), func() { d.Depthwise(out, x, 0, npix, w, s.c, bias, zero, 0, 6) })
			})
		}
	}
}

// TestPackInto: a packing reused for another matrix (smaller, with a partial last panel whose
// padding held NaN before) gives the bits of a fresh packing, for PackBInto and PackBTInto.
func TestPackInto(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	inf := float32(math.Inf(1))
	for _, trans := range []bool{false, true} {
		var reused *PackedB
		for _, s := range []struct{ k, n int }{{7, 48}, {7, 35}, {5, 20}, {9, 3}, {7, 48}} {
			b := randSlice(r, s.k*s.n)
			if reused != nil {
				for i := range reused.panels {
					reused.panels[i] = float32(math.NaN())
				}
			}
			var fresh, got *PackedB
			var err error
			if trans {
				fresh, _ = PackBT(b, s.k, s.n, s.k)
				got, err = PackBTInto(reused, b, s.k, s.n, s.k)
			} else {
				fresh, _ = PackB(b, s.k, s.n, s.n)
				got, err = PackBInto(reused, b, s.k, s.n, s.n)
			}
			if err != nil {
				t.Fatal(err)
			}
			m := 13
			a := randSlice(r, m*s.k)
			want, out := make([]float32, m*s.n), make([]float32, m*s.n)
			fresh.GemmBias(m, a, s.k, nil, want, s.n, -inf, inf)
			got.GemmBias(m, a, s.k, nil, out, s.n, -inf, inf)
			for i := range want {
				if math.Float32bits(want[i]) != math.Float32bits(out[i]) {
					t.Fatalf("trans %v %dx%d after reuse: [%d] = %v, fresh packing %v", trans, s.k, s.n, i, out[i], want[i])
				}
			}
			reused = got
		}
	}
}
