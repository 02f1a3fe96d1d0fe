package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestSiLUAt holds SiLUAt, over a tensor split into chunks at arbitrary offsets, bit for bit to
// Sigmoid over the whole tensor followed by Mul (the two-node form it replaces), on every kernel
// set, with NaN, ±Inf, ±0, denormals, values past the sigmoid's cutoff and near MaxFloat32, for
// totals around multiples of 8 (where Sigmoid's vector and scalar parts meet) and both product
// orders. Outside Go's scalar loops the NaNs are the same NaN too.
func TestSiLUAt(t *testing.T) {
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)),
		1e-40, -1e-40, 87.3, -87.4, -88, -104, -150, 200, math.MaxFloat32, -math.MaxFloat32,
		math.Float32frombits(0xffc00001), math.Float32frombits(0x7f800001)} // a negative NaN, a signalling one
	r := rand.New(rand.NewPCG(3, 4))
	for _, isa := range ISAs() {
		restore, err := UseISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		for _, total := range []int{1, 5, 7, 8, 9, 15, 16, 17, 63, 64, 100, 333, 1000} {
			src := make([]float32, total)
			for i := range src {
				if r.IntN(4) == 0 {
					src[i] = special[r.IntN(len(special))]
				} else {
					src[i] = float32(r.NormFloat64() * 8)
				}
			}
			for _, sigFirst := range []bool{false, true} {
				want := make([]float32, total)
				Sigmoid(want, src)
				if sigFirst {
					Mul(want, want, src)
				} else {
					Mul(want, src, want)
				}
				for _, inPlace := range []bool{false, true} {
					name := fmt.Sprintf("%s/total=%d/sigFirst=%v/inPlace=%v", isa, total, sigFirst, inPlace)
					got := make([]float32, total)
					in := src
					if inPlace {
						copy(got, src)
						in = got
					}
					for lo := 0; lo < total; { // chunks of 1 to 20 elements at any offset
						hi := min(total, lo+1+r.IntN(20))
						SiLUAt(got[lo:hi], in[lo:hi], lo, total, sigFirst)
						lo = hi
					}
					for i := range want {
						if scalarNaN := isa == "go" || i >= total&^7; scalarNaN && got[i] != got[i] && want[i] != want[i] {
							continue // (Go's compiler orders a product's operands as it likes: which NaN a scalar x·NaN keeps is its choice)
						}
						if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
							t.Fatalf("%s: silu(%v) [%d] = %v (%#x), sigmoid then multiply %v (%#x)", name, src[i], i, got[i],
								math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
						}
					}
				}
			}
		}
		restore()
	}
}

func BenchmarkSiLU(b *testing.B) {
	src, dst := make([]float32, 4096), make([]float32, 4096)
	for i := range src {
		src[i] = float32(i%200-100) * 0.1
	}
	b.SetBytes(4 * 4096)
	for b.Loop() {
		SiLUAt(dst, src, 0, len(src), false)
	}
}
