package gemm

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQDW checks every int8 kernel set against the definition: channel counts with partial
// chunks of 16, padding taps (negative offsets) among real ones.
func TestQDW(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, isa := range Int8ISAs() {
		restore, err := UseInt8ISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ c, taps, npix, ldo int }{{1, 1, 1, 1}, {16, 9, 5, 16}, {24, 9, 7, 30}, {37, 25, 3, 37}, {96, 9, 11, 96}, {64, 9, 4, 64}, {150, 9, 3, 160}, {8, 9, 2, 8}, {7, 9, 3, 7}, {33, 9, 4, 40}, {40, 4, 5, 41}, {200, 25, 2, 200}, {71, 1, 6, 71}} {
			t.Run(fmt.Sprintf("%s/c%d/taps%d", isa, c.c, c.taps), func(t *testing.T) {
				pixels := 6
				x := randCodes(r, pixels*c.c)
				w := make([]int32, c.taps*c.c)
				for i := range w {
					w[i] = int32(r.IntN(256) - 128)
				}
				bias := make([]int32, c.c)
				scale := make([]float32, c.c)
				for i := range bias {
					bias[i] = int32(r.IntN(4000) - 2000)
					scale[i] = 0.001 + r.Float32()*0.02
				}
				xzp, yzp := int32(r.IntN(256)-128), int32(r.IntN(20)-10)
				offs := make([]int32, c.npix*c.taps)
				for i := range offs {
					offs[i] = int32(r.IntN(pixels+1)-1) * int32(c.c) // -c: padding
					if offs[i] < 0 {
						offs[i] = -1
					}
				}
				q, err := NewQDW(w, bias, scale, c.taps, c.c, xzp, yzp, -120, 110)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]int8, (c.npix-1)*c.ldo+c.c)
				if err := q.Run(x, offs, c.npix, got, c.ldo); err != nil {
					t.Fatal(err)
				}
				want := make([]int8, len(got))
				for i := range c.npix {
					for ch := range c.c {
						acc := bias[ch]
						for tp := range c.taps {
							xv := xzp
							if o := offs[i*c.taps+tp]; o >= 0 {
								xv = int32(x[int(o)+ch])
							}
							acc += (xv - xzp) * w[tp*c.c+ch]
						}
						want[i*c.ldo+ch] = int8(requantFP32(acc, scale[ch], float32(-120-yzp), float32(110-yzp), yzp))
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("got %v\nwant %v", got, want)
				}
			})
		}
		restore()
	}
}
