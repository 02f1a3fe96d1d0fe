package gemm

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestQB4 checks the qd8 × qb4w kernels of every kernel set against the definition, bit for
// bit: partial panels, one to many blocks, every tile height.
func TestQB4(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, isa := range Int8ISAs() {
		restore, err := UseInt8ISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ m, k, n, block int }{{1, 32, 16, 32}, {3, 64, 24, 32}, {5, 256, 70, 32}, {9, 512, 33, 128}, {2, 16, 100, 8},
			// Every tile shape: 1-2 rows of up to 4 panels (3 left of 7), 3-4 rows of 2, 5-8
			// rows of 1 or 2 panels with partial last tiles, and rows past one tile.
			{1, 64, 48, 32}, {2, 64, 100, 32}, {4, 64, 100, 32}, {6, 64, 100, 32}, {7, 128, 100, 32},
			{8, 64, 100, 32}, {12, 64, 40, 16}, {16, 64, 100, 32}, {17, 64, 100, 32}, {64, 256, 64, 32}} {
			t.Run(fmt.Sprintf("%s/%dx%dx%d/g%d", isa, c.m, c.k, c.n, c.block), func(t *testing.T) {
				nb := c.k / c.block
				w := make([]int32, c.k*c.n)
				for i := range w {
					w[i] = int32(r.IntN(16) - 8)
				}
				scales := make([]float32, c.n*nb)
				for i := range scales {
					scales[i] = math.Float32frombits(math.Float32bits(0.001+r.Float32()*0.05) &^ 0xFFFF) // bf16
				}
				p, err := PackQB4(w, c.k, c.n, c.block, scales)
				if err != nil {
					t.Fatal(err)
				}
				a := make([]int8, c.m*c.k)
				for i := range a {
					a[i] = int8(r.IntN(256) - 128)
				}
				if c.m == 3 { // the extremes: the largest block sums of either sign
					for i := range a[:c.k] {
						a[i] = -128
					}
					for i := range w[:c.n] {
						w[i] = -8
					}
					p, _ = PackQB4(w, c.k, c.n, c.block, scales)
				}
				ksum := make([]float32, p.Panels()*QPanel)
				for i := range ksum[:c.n] {
					ksum[i] = r.Float32()*20 - 10
				}
				nzp := make([]float32, c.m)
				for i := range nzp {
					nzp[i] = float32(r.IntN(256) - 128)
				}
				got := make([]float32, c.m*c.n)
				if err := p.Run(c.m, a, c.k, nil, ksum, nzp, got, c.n, 0, p.Panels()); err != nil {
					t.Fatal(err)
				}
				// By panel ranges (as the callers split a layer across threads): the same values.
				split := make([]float32, c.m*c.n)
				h := p.Panels() / 2
				bs, err := p.BlockSums(c.m, a, c.k)
				if err != nil {
					t.Fatal(err)
				}
				if err := p.Run(c.m, a, c.k, bs, ksum, nzp, split, c.n, 0, h); err != nil {
					t.Fatal(err)
				}
				if err := p.Run(c.m, a, c.k, bs, ksum, nzp, split, c.n, h, p.Panels()); err != nil {
					t.Fatal(err)
				}
				for i := range got {
					if math.Float32bits(split[i]) != math.Float32bits(got[i]) {
						t.Fatalf("split at panel %d: [%d] = %g, want %g", h, i, split[i], got[i])
					}
				}
				for row := range c.m {
					for o := range c.n {
						v := ksum[o] * nzp[row]
						for b := range nb {
							var s int32
							for i := b * c.block; i < (b+1)*c.block; i++ {
								s += int32(a[row*c.k+i]) * w[i*c.n+o]
							}
							v = FMA32(float32(s), scales[o*nb+b], v)
						}
						if g := got[row*c.n+o]; math.Float32bits(g) != math.Float32bits(v) {
							t.Fatalf("[%d, %d] = %g, want %g", row, o, g, v)
						}
					}
				}
			})
		}
		restore()
	}
}

// TestQB4BlockSums checks the block sums of every kernel set against their definition, with
// blocks long enough to fill the 16-bit lanes (all codes -128 or 127) and rows of whole 64-code
// chunks and not.
func TestQB4BlockSums(t *testing.T) {
	for _, isa := range Int8ISAs() {
		restore, err := UseInt8ISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		testQB4BlockSums(t)
		restore()
	}
	if _, err := (&QB4Packed{K: 8}).BlockSums(2, make([]int8, 15), 8); err == nil {
		t.Error("block sums of 2 rows of 8 read from 15 codes")
	}
}

func testQB4BlockSums(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct{ m, k, block int }{{1, 8, 8}, {3, 96, 32}, {2, 128, 64}, {1, 2080, 32}, {2, 4096, 2048}, {1, 4096, 4096}, {2, 8192, 64}} {
		p, err := PackQB4(make([]int32, c.k), c.k, 1, c.block, make([]float32, c.k/c.block))
		if err != nil {
			t.Fatal(err)
		}
		for _, fill := range []func(int) int8{func(int) int8 { return int8(r.IntN(256) - 128) }, func(int) int8 { return -128 }, func(int) int8 { return 127 }} {
			a := make([]int8, c.m*c.k+3)
			for i := range a {
				a[i] = fill(i)
			}
			bs, err := p.BlockSums(c.m, a[3:], c.k)
			if err != nil {
				t.Fatal(err)
			}
			for row := range c.m {
				for b := range c.k / c.block {
					var s int32
					for _, x := range a[3+row*c.k+b*c.block:][:c.block] {
						s += int32(x)
					}
					if got := bs[b*c.m+row]; got != -8*s {
						t.Fatalf("%v: row %d block %d: %d, want %d", c, row, b, got, -8*s)
					}
				}
			}
		}
	}
}

// TestQB4Refuses checks that block scales that are not bf16 values are refused (the packing
// keeps them as bf16).
func TestQB4Refuses(t *testing.T) {
	if _, err := PackQB4(make([]int32, 32*16), 32, 16, 32, append(make([]float32, 15), 0.1)); err == nil {
		t.Error("a scale of 0.1 (not a bf16 value) was packed")
	}
}

// TestFMA32 checks the fp32 fused multiply-add against exact rational arithmetic on ties.
func TestFMA32(t *testing.T) {
	// a·b = 1 + 2^-11 + 2^-24, halfway between two fp32 values; an addend far below fp64's
	// precision still decides the rounding, which a sum rounded to fp64 first would lose.
	a, b := float32(1+0x1p-12), float32(1+0x1p-12)
	if got, want := FMA32(a, b, 0), float32(1+0x1p-11); got != want { // the tie, to even
		t.Errorf("tie: got %v want %v", got, want)
	}
	if got, want := FMA32(a, b, 0x1p-60), float32(1+0x1p-11+0x1p-23); got != want {
		t.Errorf("above the tie: got %v want %v", got, want)
	}
	if got, want := FMA32(a, b, -0x1p-60), float32(1+0x1p-11); got != want {
		t.Errorf("below the tie: got %v want %v", got, want)
	}
	if got, want := FMA32(3, 5, 7), float32(22); got != want {
		t.Errorf("exact: %v", got)
	}
}

// qb4Case is one qb4w layer of the shape tests: codes a (m × k), weights w (k × n, in [-8, 7]),
// bf16 block scales (n × k/block), ksum padded to whole panels and nzp per row.
type qb4Case struct {
	m, k, n, block int
	a              []int8
	w              []int32
	scales         []float32
	ksum, nzp      []float32
}

// want is the definition: v = ksum[o]·nzp[r], then per block fma(float(Σ x·w), scale, v).
func (c *qb4Case) want() []float32 {
	nb := c.k / c.block
	out := make([]float32, c.m*c.n)
	for row := range c.m {
		for o := range c.n {
			v := c.ksum[o] * c.nzp[row]
			for b := range nb {
				var s int32
				for i := b * c.block; i < (b+1)*c.block; i++ {
					s += int32(c.a[row*c.k+i]) * c.w[i*c.n+o]
				}
				v = FMA32(float32(s), c.scales[o*nb+b], v)
			}
			out[row*c.n+o] = v
		}
	}
	return out
}

// check runs the case on every kernel set, whole and split by panel ranges, against want bit
// for bit (NaNs as NaNs: their payloads are the hardware's).
func (c *qb4Case) check(t *testing.T) {
	t.Helper()
	p, err := PackQB4(c.w, c.k, c.n, c.block, c.scales)
	if err != nil {
		t.Fatal(err)
	}
	want := c.want()
	for _, isa := range Int8ISAs() {
		restore, err := UseInt8ISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		bs, err := p.BlockSums(c.m, c.a, c.k)
		if err != nil {
			t.Fatal(err)
		}
		whole := make([]float32, c.m*c.n)
		split := make([]float32, c.m*c.n)
		err = p.Run(c.m, c.a, c.k, nil, c.ksum, c.nzp, whole, c.n, 0, p.Panels())
		for h := 0; err == nil && h < p.Panels(); h += 3 { // panel ranges of 3 (every tile width)
			err = p.Run(c.m, c.a, c.k, bs, c.ksum, c.nzp, split, c.n, h, min(h+3, p.Panels()))
		}
		restore()
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range want {
			for _, got := range []float32{whole[i], split[i]} {
				if math.Float32bits(got) != math.Float32bits(v) && !(math.IsNaN(float64(got)) && math.IsNaN(float64(v))) {
					t.Fatalf("%s: %dx%dx%d/g%d: [%d, %d] = %g (%#x), want %g (%#x)", isa, c.m, c.k, c.n, c.block, i/c.n, i%c.n, got, math.Float32bits(got), v, math.Float32bits(v))
				}
			}
		}
	}
}

func newQB4Case(r *rand.Rand, m, k, n, block int) *qb4Case {
	c := &qb4Case{m: m, k: k, n: n, block: block, a: make([]int8, m*k), w: make([]int32, k*n), scales: make([]float32, n*(k/block)),
		ksum: make([]float32, (n+QPanel-1)/QPanel*QPanel), nzp: make([]float32, m)}
	for i := range c.a {
		c.a[i] = int8(r.IntN(256) - 128)
	}
	for i := range c.w {
		c.w[i] = int32(r.IntN(16) - 8)
	}
	for i := range c.scales {
		c.scales[i] = math.Float32frombits(math.Float32bits(0.001+r.Float32()*0.05) &^ 0xFFFF)
	}
	for i := range c.ksum[:n] {
		c.ksum[i] = r.Float32()*2000 - 1000
	}
	for i := range c.nzp {
		c.nzp[i] = float32(r.IntN(256) - 128)
	}
	return c
}

// TestQB4Shapes runs LLM-like and odd shapes on every kernel set: 1-6 and 64 rows, K of one
// block up to past 2048, blocks of 32 to a whole row, N with and without partial panels, and
// rows at the extremes (all codes -128 against weights -8: the largest block sums).
func TestQB4Shapes(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	ns := []int{16, 33, 70, 5, 48}
	idx := 0
	for _, m := range []int{1, 2, 3, 4, 5, 6, 64} {
		for _, k := range []int{32, 64, 2048, 2080} {
			for _, block := range []int{32, 64, 128, k} {
				if k%block != 0 || (block == k && k == 32) && block != 32 {
					continue
				}
				n := ns[idx%len(ns)]
				idx++
				if m == 64 && k >= 2048 {
					n = 40 // keep the Go reference's time down
				}
				c := newQB4Case(r, m, k, n, block)
				if m > 1 {
					for i := range c.a[:k] {
						c.a[i] = -128
					}
					for i := range k {
						c.w[i*n] = -8
						c.w[i*n+n-1] = 7
					}
				}
				c.check(t)
			}
		}
	}
}

// TestQB4Special runs extreme bf16 scales (the largest and smallest finite, subnormal, signed
// zeros, infinities, NaN) and rows whose starting values ksum·nzp are infinite, NaN or huge, so
// outputs overflow, underflow to subnormals and propagate NaN as the Go loops do.
func TestQB4Special(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	bf := []uint16{0x7F7F, 0xFF7F, 0x0001, 0x8001, 0x0080, 0x007F, 0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x3F80, 0x0100, 0x1000}
	for _, sh := range []struct{ m, k, n, block int }{{1, 64, 33, 32}, {3, 128, 40, 32}, {5, 2048, 20, 2048}, {2, 256, 70, 64}} {
		c := newQB4Case(r, sh.m, sh.k, sh.n, sh.block)
		for i := range c.scales {
			if r.IntN(3) != 0 {
				c.scales[i] = math.Float32frombits(uint32(bf[r.IntN(len(bf))]) << 16)
			}
		}
		special := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 3e38, -3e38, 1e-40, 0}
		for i := range c.ksum[:sh.n] {
			if r.IntN(2) == 0 {
				c.ksum[i] = special[r.IntN(len(special))]
			}
		}
		c.nzp[0] = 0 // 0·Inf: NaN rows
		c.check(t)
	}
	// Subnormal results: tiny scales, sums of a few units, so every fma rounds at 2^-149.
	c := newQB4Case(r, 4, 256, 48, 32)
	for i := range c.scales {
		c.scales[i] = math.Float32frombits(uint32(0x0001+r.IntN(0x7F)) << 16)
	}
	for i := range c.ksum {
		c.ksum[i] = math.Float32frombits(uint32(r.IntN(1 << 23)))
	}
	for i := range c.nzp {
		c.nzp[i] = 1
	}
	c.check(t)
}

// TestFMA32Exact checks FMA32 against the exactly rounded a·b + c (math/big) where the fp64
// sum is inexact: random operands, and ones whose results are subnormal, where the fp32 ties
// lie at other bits of the fp64 value than for normal results.
func TestFMA32Exact(t *testing.T) {
	exact := func(a, b, c float32) float32 {
		x := new(big.Float).SetPrec(2000).SetFloat64(float64(a))
		x.Mul(x, new(big.Float).SetFloat64(float64(b)))
		x.Add(x, new(big.Float).SetPrec(2000).SetFloat64(float64(c)))
		if x.Sign() == 0 { // an exact zero: its sign is IEEE's, as fp64 has it
			return float32(float64(a)*float64(b) + float64(c))
		}
		f, _ := x.Float32()
		return f
	}
	// 2^-150·(1-2^-46) + (2^-127+2^-149): fp64 rounds the sum to the midpoint 2^-127 + 3·2^-150,
	// whose even neighbour is above; the exact sum is below it.
	a := float32(math.Ldexp(1+0x1p-23, -75))
	b := float32(math.Ldexp(1-0x1p-23, -75))
	c := float32(0x1p-127 + 0x1p-149)
	if got := FMA32(a, b, c); got != c {
		t.Errorf("subnormal tie: %g (%#x), want %g", got, math.Float32bits(got), c)
	}
	r := rand.New(rand.NewPCG(17, 18))
	for range 200000 {
		var a, b, c float32
		switch r.IntN(3) {
		case 0: // anywhere
			a, b, c = math.Float32frombits(r.Uint32()), math.Float32frombits(r.Uint32()), math.Float32frombits(r.Uint32())
		case 1: // subnormal results: a small product beside a subnormal addend
			a = math.Float32frombits(uint32(r.IntN(1<<23)) | uint32(90+r.IntN(40))<<23 | r.Uint32()&(1<<31))
			b = math.Float32frombits(uint32(r.IntN(1<<23)) | uint32(1+r.IntN(40))<<23 | r.Uint32()&(1<<31))
			c = math.Float32frombits(uint32(r.IntN(1<<23)) | r.Uint32()&(1<<31))
		default: // normal results near ties: products of 12-bit values
			a = float32(r.IntN(1<<12)+1) * 0x1p-12
			b = float32(r.IntN(1<<12)+1) * 0x1p-12
			c = math.Float32frombits(math.Float32bits(float32(r.Float64())) &^ 0xFFF)
		}
		if math.IsNaN(float64(a)) || math.IsNaN(float64(b)) || math.IsNaN(float64(c)) || math.IsInf(float64(a), 0) || math.IsInf(float64(b), 0) || math.IsInf(float64(c), 0) {
			continue
		}
		if p := float64(a) * float64(b); math.IsInf(p+float64(c), 0) || math.Abs(p) > math.MaxFloat32*4 {
			continue
		}
		got, want := FMA32(a, b, c), exact(a, b, c)
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("FMA32(%g, %g, %g) = %g (%#x), want %g (%#x)", a, b, c, got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
}

func BenchmarkQB4(b *testing.B) {
	for _, m := range []int{1, 64} {
		for _, isa := range Int8ISAs() {
			b.Run(fmt.Sprintf("%s/m%d", isa, m), func(b *testing.B) {
				restore, _ := UseInt8ISA(isa)
				defer restore()
				k, n, block := 2048, 2048, 32
				w := make([]int32, k*n)
				scales := make([]float32, n*k/block)
				for i := range scales {
					scales[i] = 0.0100097656 // a bf16 value
				}
				p, err := PackQB4(w, k, n, block, scales)
				if err != nil {
					b.Fatal(err)
				}
				a := make([]int8, m*k)
				ksum, nzp, c := make([]float32, n), make([]float32, m), make([]float32, m*n)
				for b.Loop() {
					if err := p.Run(m, a, k, nil, ksum, nzp, c, n, 0, p.Panels()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkQB4BlockSums(b *testing.B) {
	k, m := 2048, 64
	p, err := PackQB4(make([]int32, k), k, 1, 32, make([]float32, k/32))
	if err != nil {
		b.Fatal(err)
	}
	a := make([]int8, m*k)
	b.SetBytes(int64(m * k))
	for b.Loop() {
		if _, err := p.BlockSums(m, a, k); err != nil {
			b.Fatal(err)
		}
	}
}
