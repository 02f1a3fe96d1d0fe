package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

// softmaxTol: the vectorised exp is within 2 float32 ulp and the float32 sum of up to a few
// thousand terms adds a few more, so 1e-5 relative; tiny probabilities are compared absolutely.
var softmaxTol = tol{abs: 1e-7, rel: 1e-5}

// softmaxCases are shapes × dims × dtypes × special values × in-place, for softmax and
// log_softmax.
func softmaxCases(t *testing.T, name string, tl tol) {
	shapes := [][]int{{1}, {7}, {3, 5}, {2, 3, 17}, {4, 128}, {2, 12, 8, 64}, {1, 0}, {5, 1}, {2, 1000}}
	for _, sizes := range shapes {
		for _, dim := range []int{-1, 0, len(sizes) - 1} {
			for _, dt := range []executor.ScalarType{executor.Float32, executor.Float64} {
				for _, special := range []bool{false, true} {
					for _, inPlace := range []bool{false, true} {
						for _, scale := range []float64{1, 30} {
							t.Run(fmt.Sprintf("%v/dim%d/%s/special=%v/inplace=%v/scale=%v", sizes, dim, executor.DTypeName(dt), special, inPlace, scale), func(t *testing.T) {
								differ(t, name, tl, func(r *rand.Rand) []any {
									x := randTensor(r, dt, special, scale, sizes...)
									out := newTensor(dt, sizes...)
									if inPlace {
										out = x
									}
									return []any{x, dim, false, out, out}
								})
							})
						}
					}
				}
			}
		}
	}
	// A wrong out dtype and a bad dim fail as the portable kernel fails.
	differ(t, name, tl, func(r *rand.Rand) []any {
		return []any{randTensor(r, executor.Float32, false, 1, 2, 3), 5, false, newTensor(executor.Float32, 2, 3), none}
	})
	differ(t, name, tl, func(r *rand.Rand) []any {
		return []any{randTensor(r, executor.Float32, false, 1, 2, 3), 1, false, newTensor(executor.Float64, 2, 3), none}
	})
	differ(t, name, tl, func(r *rand.Rand) []any {
		return []any{randTensor(r, executor.Float32, false, 1, 2, 3), 1, false, newTensor(executor.Float32, 2, 4), none}
	})
}

func TestSoftmaxMatchesPortable(t *testing.T) { softmaxCases(t, "aten::_softmax.out", softmaxTol) }
