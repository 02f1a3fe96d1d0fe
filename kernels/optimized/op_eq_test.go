package optimized

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

// eq.Scalar is a comparison: bitwise the portable result (zero tol) for every self dtype and
// scalar kind, -inf and NaN scalars included, and the refusals alike.
func TestEqScalarMatchesPortable(t *testing.T) {
	for _, sizes := range [][]int{{1}, {7}, {3, 197, 197}, {0}} {
		for _, dt := range []executor.ScalarType{executor.Float32, executor.Float64, executor.Int32} {
			for _, other := range []any{math.Inf(-1), 0.0, math.NaN(), 1e30, 2, true} {
				for _, odt := range []executor.ScalarType{executor.Bool, executor.Float32} {
					t.Run(fmt.Sprintf("%v/%s/%v/%s", sizes, executor.DTypeName(dt), other, executor.DTypeName(odt)), func(t *testing.T) {
						differ(t, "aten::eq.Scalar_out", tol{}, func(r *rand.Rand) []any {
							x := randTensor(r, dt, true, 1, sizes...)
							if dt == executor.Float32 && len(sizes) > 0 && sizes[0] > 0 {
								v := executor.Data[float32](x)
								for i := 0; i < len(v); i += 5 {
									v[i] = float32(math.Inf(-1))
								}
							}
							out := newTensor(odt, sizes...)
							return []any{x, other, out, out}
						})
					})
				}
			}
		}
	}
}
