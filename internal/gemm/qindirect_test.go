package gemm

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQS8Indirect: the indirect product equals the product of the gathered patch matrix, on
// every kernel set, whole and split by pixel tiles and panels.
func TestQS8Indirect(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, c := range []struct{ pixels, taps, ch, n int }{{1, 1, 4, 16}, {7, 9, 8, 24}, {13, 9, 16, 70}, {30, 4, 12, 33}, {2, 9, 4, 1}, {3, 25, 8, 15}, {4, 1, 32, 48}, {5, 9, 20, 17}, {11, 2, 4, 64}} {
		K := c.taps * c.ch
		inPixels := 10
		x := randCodes(r, inPixels*c.ch)
		xzp := int32(r.IntN(256) - 128)
		zrow := make([]int8, c.ch)
		for i := range zrow {
			zrow[i] = int8(xzp)
		}
		offs := make([]int32, c.pixels*c.taps)
		for i := range offs {
			offs[i] = int32(r.IntN(inPixels+1)-1) * int32(c.ch)
			if offs[i] < 0 {
				offs[i] = -1
			}
		}
		ind, err := NewQIndirect(offs, c.pixels, c.taps, c.ch, len(x))
		if err != nil {
			t.Fatal(err)
		}
		col := make([]int8, c.pixels*K)
		for px := range c.pixels {
			for tp := range c.taps {
				src := zrow
				if o := offs[px*c.taps+tp]; o >= 0 {
					src = x[o : int(o)+c.ch]
				}
				copy(col[px*K+tp*c.ch:], src)
			}
		}
		w := make([]int32, K*c.n)
		for i := range w {
			w[i] = int32(r.IntN(256) - 128)
		}
		scale := make([]float32, c.n)
		for i := range scale {
			scale[i] = 0.0005 + r.Float32()*0.005
		}
		pk, _ := PackQ8(w, K, c.n)
		q, err := pk.NewQS8(nil, scale, xzp, 3, -128, 127)
		if err != nil {
			t.Fatal(err)
		}
		want := naiveQS8(qCase{c.pixels, K, c.n, K}, col, w, make([]int32, c.n), scale, xzp, 3, -128, 127)
		for _, isa := range Int8ISAs() {
			t.Run(fmt.Sprintf("%s/%dpx/%dtaps", isa, c.pixels, c.taps), func(t *testing.T) {
				restore, _ := UseInt8ISA(isa)
				defer restore()
				got := make([]int8, c.pixels*c.n)
				if err := q.RunIndirect(ind, x, zrow, 0, c.pixels, got, c.n, 0, pk.Panels()); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("got %v\nwant %v", got, want)
				}
				clear(got)
				for p0 := 0; p0 < c.pixels; p0 += 6 {
					for j := range pk.Panels() {
						if err := q.RunIndirect(ind, x, zrow, p0, min(p0+6, c.pixels), got[p0*c.n:], c.n, j, j+1); err != nil {
							t.Fatal(err)
						}
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("split: got %v\nwant %v", got, want)
				}
			})
		}
	}
}
