package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestAddmmMatchesPortable(t *testing.T) {
	for _, s := range matmulShapes {
		m, n := s[0], s[2]
		for _, self := range [][]int{{n}, {1, n}, {m, 1}, {m, n}, {}, {n + 1}} {
			for _, ab := range [][2]any{{1, 1}, {0.5, 2.0}, {0, 1}, {0.0, 3}, {1, 0}} {
				for _, dt := range []executor.ScalarType{executor.Float32, executor.Float64} {
					for _, special := range []bool{false, true} {
						t.Run(fmt.Sprintf("%v/self%v/beta%v,alpha%v/%s/%v", s, self, ab[0], ab[1], executor.DTypeName(dt), special), func(t *testing.T) {
							differ(t, "aten::addmm.out", matmulTol, func(r *rand.Rand) []any {
								out := newTensor(dt, m, n)
								return []any{randMat(r, dt, special, self...), randMat(r, dt, special, m, s[1]),
									randMat(r, dt, special, s[1], n), ab[0], ab[1], out, out}
							})
						})
					}
				}
			}
		}
	}
}
