package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

// On rows shorter than 256 the layer norm fast path runs the portable algorithm: bitwise equal
// (zero tol). Longer float32 rows take the official optimized kernel's Welford moments, which
// TestNativeLayerNormOfficial checks against the official runtime's outputs.
func TestNativeLayerNormMatchesPortable(t *testing.T) {
	type tc struct {
		sizes []int
		norm  []int64
	}
	cases := []tc{{[]int{4, 8}, []int64{8}}, {[]int{2, 3, 5}, []int64{3, 5}}, {[]int{128, 255}, []int64{255}}, {[]int{2, 768}, []int64{768}},
		{[]int{7}, []int64{7}}, {[]int{6, 9}, []int64{9}}, {[]int{197, 192}, []int64{192}}, {[]int{3, 0}, []int64{0}}, {[]int{2, 4}, []int64{5}}, {[]int{2, 4}, []int64{}}}
	for _, c := range cases {
		for _, dt := range []executor.ScalarType{executor.Float32, executor.Float64} {
			if dt == executor.Float32 && len(c.sizes) > 0 && c.sizes[len(c.sizes)-1] >= layerNormSmallN {
				continue
			}
			for _, affine := range []int{0, 1, 2, 3} {
				for _, special := range []bool{false, true} {
					t.Run(fmt.Sprintf("%v/%v/%s/affine%d/%v", c.sizes, c.norm, executor.DTypeName(dt), affine, special), func(t *testing.T) {
						differ(t, "aten::native_layer_norm.out", tol{}, func(r *rand.Rand) []any {
							wsz := []int{}
							lead := len(c.sizes) - len(c.norm)
							if lead >= 0 {
								wsz = c.sizes[lead:]
							}
							var w, b any = none, none
							if affine&1 != 0 {
								w = randTensor(r, dt, special, 1, wsz...)
							}
							if affine&2 != 0 {
								b = randTensor(r, dt, special, 1, wsz...)
							}
							stat := make([]int, len(c.sizes))
							for d := range stat {
								stat[d] = 1
								if d < lead {
									stat[d] = c.sizes[d]
								}
							}
							out, mean, rstd := newTensor(dt, c.sizes...), newTensor(dt, stat...), newTensor(dt, stat...)
							return []any{randTensor(r, dt, special, 3, c.sizes...), c.norm, w, b, 1e-5, out, mean, rstd,
								[]*executor.Tensor{out, mean, rstd}}
						})
					})
				}
			}
		}
	}
}
