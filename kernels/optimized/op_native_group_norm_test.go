package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

// The group norm fast path runs the portable algorithm: bitwise equal (zero tol).
func TestNativeGroupNormMatchesPortable(t *testing.T) {
	for _, c := range []struct {
		sizes []int
		group int
	}{{[]int{2, 4, 3, 3}, 2}, {[]int{1, 32, 16, 16}, 8}, {[]int{3, 6}, 3}, {[]int{2, 6, 5}, 4}, {[]int{1, 4, 0}, 2}, {[]int{2, 8, 7}, 1}} {
		for _, dt := range []executor.ScalarType{executor.Float32, executor.Float64} {
			for _, affine := range []int{0, 1, 2, 3} {
				for _, special := range []bool{false, true} {
					t.Run(fmt.Sprintf("%v/g%d/%s/affine%d/%v", c.sizes, c.group, executor.DTypeName(dt), affine, special), func(t *testing.T) {
						differ(t, "aten::native_group_norm.out", tol{}, func(r *rand.Rand) []any {
							ch := c.sizes[1]
							hxw := 1
							for _, s := range c.sizes[2:] {
								hxw *= s
							}
							var w, b any = none, none
							if affine&1 != 0 {
								w = randTensor(r, dt, special, 1, ch)
							}
							if affine&2 != 0 {
								b = randTensor(r, dt, special, 1, ch)
							}
							out, mean, rstd := newTensor(dt, c.sizes...), newTensor(dt, c.sizes[0], c.group), newTensor(dt, c.sizes[0], c.group)
							return []any{randTensor(r, dt, special, 3, c.sizes...), w, b, c.sizes[0], ch, hxw, c.group, 1e-5,
								out, mean, rstd, []*executor.Tensor{out, mean, rstd}}
						})
					})
				}
			}
		}
	}
}
