package gemm

import (
	"fmt"
	"math"
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

// TestQB4BlockSums checks the block sums against their definition, with blocks long enough
// to fill the 16-bit lanes (all codes -128 or 127).
func TestQB4BlockSums(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct{ m, k, block int }{{1, 8, 8}, {3, 96, 32}, {2, 4096, 2048}, {1, 4096, 4096}, {2, 8192, 64}} {
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
	if _, err := (&QB4Packed{K: 8}).BlockSums(2, make([]int8, 15), 8); err == nil {
		t.Error("block sums of 2 rows of 8 read from 15 codes")
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
