package gemm

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// qCase is one int8 product: m rows of K codes (lda apart) times a [K, N] filter.
type qCase struct{ m, k, n, lda int }

var qCases = []qCase{
	{1, 1, 1, 1}, {1, 4, 16, 4}, {3, 27, 32, 27}, {7, 9, 24, 9}, {13, 64, 96, 70}, {6, 3, 5, 3},
	{1, 2048, 72, 2048}, {12, 144, 17, 144}, {25, 33, 200, 40}, {0, 8, 8, 8},
}

func randCodes(r *rand.Rand, n int) []int8 {
	s := make([]int8, n)
	for i := range s {
		s[i] = int8(r.IntN(256) - 128)
	}
	return s
}

// naiveQS8 is the layer as XNNPACK defines it, without any packing.
func naiveQS8(c qCase, a []int8, w, bias []int32, scale []float32, xzp, yzp, qmin, qmax int32) []int8 {
	out := make([]int8, c.m*c.n)
	for r := range c.m {
		for o := range c.n {
			acc := bias[o]
			for k := range c.k {
				acc += (int32(a[r*c.lda+k]) - xzp) * w[k*c.n+o]
			}
			out[r*c.n+o] = int8(requantFP32(acc, scale[o], float32(qmin-yzp), float32(qmax-yzp), yzp))
		}
	}
	return out
}

// TestQS8 checks every int8 kernel set this machine has against the unpacked definition, over
// shapes with partial groups of 4 input channels and partial panels, whole and split by panels.
func TestQS8(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, isa := range Int8ISAs() {
		restore, err := UseInt8ISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range qCases {
			t.Run(fmt.Sprintf("%s/%dx%dx%d", isa, c.m, c.k, c.n), func(t *testing.T) {
				w := make([]int32, c.k*c.n)
				for i := range w {
					w[i] = int32(r.IntN(256) - 128)
				}
				bias := make([]int32, c.n)
				scale := make([]float32, c.n)
				for o := range bias {
					bias[o] = int32(r.IntN(20000) - 10000)
					scale[o] = 0.0001 + r.Float32()*0.01
				}
				a := randCodes(r, max(0, (c.m-1)*c.lda+c.k))
				xzp, yzp, qmin, qmax := int32(r.IntN(256)-128), int32(r.IntN(40)-20), int32(-100), int32(120)
				p, err := PackQ8(w, c.k, c.n)
				if err != nil {
					t.Fatal(err)
				}
				q, err := p.NewQS8(bias, scale, xzp, yzp, qmin, qmax)
				if err != nil {
					t.Fatal(err)
				}
				want := naiveQS8(c, a, w, bias, scale, xzp, yzp, qmin, qmax)
				got := make([]int8, c.m*c.n)
				if err := q.Run(c.m, a, c.lda, got, c.n, 0, p.Panels()); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("whole: got %v\nwant %v", got, want)
				}
				clear(got)
				for pn := 0; pn < p.Panels(); pn++ { // one panel at a time, as threads split M = 1
					if err := q.Run(c.m, a, c.lda, got, c.n, pn, pn+1); err != nil {
						t.Fatal(err)
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("by panel: got %v\nwant %v", got, want)
				}
				// The raw sums, less the zero-point correction, are the centered products.
				acc := make([]int32, c.m*c.n)
				if err := p.Acc(c.m, a, c.lda, nil, acc, c.n, 0, p.Panels()); err != nil {
					t.Fatal(err)
				}
				for i, v := range acc {
					rr, o := i/c.n, i%c.n
					var s int32
					for k := range c.k {
						s += (int32(a[rr*c.lda+k]) - xzp) * w[k*c.n+o]
					}
					if got := v - (xzp+128)*p.KSum()[o]; got != s {
						t.Fatalf("acc [%d, %d] = %d, want %d", rr, o, got, s)
					}
				}
			})
		}
		restore()
	}
}

// TestQS8Bounds: operands that do not fit are errors, not reads or writes past them.
func TestQS8Bounds(t *testing.T) {
	p, err := PackQ8(make([]int32, 8*20), 8, 20)
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.NewQS8(nil, make([]float32, 20), 0, 0, -128, 127)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m, na, lda, nc, ldc, p0, p1 int
	}{
		{2, 15, 8, 40, 20, 0, 2}, {2, 16, 8, 39, 20, 0, 2}, {1, 8, 7, 20, 20, 0, 2}, {1, 8, 8, 20, 19, 0, 2},
		{1, 8, 8, 20, 20, 0, 3}, {1, 8, 8, 20, 20, 2, 1}, {-1, 8, 8, 20, 20, 0, 1},
	} {
		if err := q.Run(c.m, make([]int8, c.na), c.lda, make([]int8, c.nc), c.ldc, c.p0, c.p1); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if _, err := PackQ8([]int32{200}, 1, 1); err == nil {
		t.Error("a weight outside int8 packed")
	}
}

func BenchmarkQS8(b *testing.B) {
	for _, c := range []qCase{{1, 2048, 2048, 2048}, {64, 2048, 2048, 2048}, {3136, 144, 24, 144}, {196, 1152, 128, 1152}} {
		for _, isa := range Int8ISAs() {
			b.Run(fmt.Sprintf("%s/%dx%dx%d", isa, c.m, c.k, c.n), func(b *testing.B) {
				restore, _ := UseInt8ISA(isa)
				defer restore()
				r := rand.New(rand.NewPCG(3, 4))
				w := make([]int32, c.k*c.n)
				for i := range w {
					w[i] = int32(r.IntN(256) - 128)
				}
				p, _ := PackQ8(w, c.k, c.n)
				q, _ := p.NewQS8(nil, make([]float32, c.n), 0, 0, -128, 127)
				a := randCodes(r, c.m*c.k)
				out := make([]int8, c.m*c.n)
				b.SetBytes(int64(c.m * c.k * c.n))
				for b.Loop() {
					_ = q.Run(c.m, a, c.k, out, c.n, 0, p.Panels())
				}
			})
		}
	}
}
