package xnnpack

import (
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkMaxPool3x3s2 is ResNet-18's max pooling (3x3, stride 2, padding 1) over its 112x112x64
// stem output, one thread.
func BenchmarkMaxPool3x3s2(b *testing.B) {
	const H, W, C, OH, OW = 112, 112, 64, 56, 56
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, H*W*C)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	y := make([]float32, OH*OW*C)
	lo, hi := float32(math.Inf(-1)), float32(math.Inf(1))
	b.SetBytes(int64(4 * len(x)))
	for i := 0; i < b.N; i++ {
		for oh := 0; oh < OH; oh++ {
			maxPoolRow(y, x, 0, oh, H, W, C, 3, 3, 2, 2, 1, 1, 1, 1, OH, OW, lo, hi)
		}
	}
}
