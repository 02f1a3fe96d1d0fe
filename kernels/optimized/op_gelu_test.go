package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

// geluTol: XNNPACK's rational erf is within a few float32 ulp of erf; for large negative x the
// result is a tiny number or zero where float64 gives a tiny number, hence the absolute part.
var geluTol = tol{abs: 1e-6, rel: 1e-5}

func TestGeluMatchesPortable(t *testing.T) {
	for _, sizes := range [][]int{{1}, {7}, {8}, {1023}, {3, 1025}, {16, 3072}, {0}} {
		for _, dt := range []executor.ScalarType{executor.Float32, executor.Float64} {
			for _, approx := range []string{"none", "tanh", "bogus"} {
				for _, special := range []bool{false, true} {
					for _, scale := range []float64{1, 8} {
						t.Run(fmt.Sprintf("%v/%s/%s/%v/%v", sizes, executor.DTypeName(dt), approx, special, scale), func(t *testing.T) {
							differ(t, "aten::gelu.out", geluTol, func(r *rand.Rand) []any {
								out := newTensor(dt, sizes...)
								return []any{randTensor(r, dt, special, scale, sizes...), approx, out, out}
							})
						})
					}
				}
			}
		}
	}
}
