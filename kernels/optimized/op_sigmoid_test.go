package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

// sigmoidTol: XNNPACK's sigmoid is within a few float32 ulp of the float64 formula; far in the
// negative tail the result is tiny (or flushed to 0), hence the absolute part.
var sigmoidTol = tol{abs: 1e-7, rel: 1e-6}

func TestSigmoidMatchesPortable(t *testing.T) {
	for _, sizes := range [][]int{{1}, {7}, {8}, {52, 2048}, {3, 1025}, {0}, {}} {
		for _, dt := range []executor.ScalarType{executor.Float32, executor.Float64, executor.Int32} {
			for _, special := range []bool{false, true} {
				for _, scale := range []float64{1, 30} {
					for _, inPlace := range []bool{false, true} {
						t.Run(fmt.Sprintf("%v/%s/special=%v/scale=%v/inplace=%v", sizes, executor.DTypeName(dt), special, scale, inPlace), func(t *testing.T) {
							differ(t, "aten::sigmoid.out", sigmoidTol, func(r *rand.Rand) []any {
								x := randTensor(r, dt, special, scale, sizes...)
								out := newTensor(executor.Float32, sizes...)
								if dt == executor.Float64 {
									out = newTensor(dt, sizes...)
								}
								if inPlace && dt != executor.Int32 {
									out = x
								}
								return []any{x, out, out}
							})
						})
					}
				}
			}
		}
	}
}
