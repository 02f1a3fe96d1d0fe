package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

// matmulShapes are m, k, n: tiles and tails of the 7- and 6-row kernels, one row, one column,
// empty dims, BERT-base's projections and attention products.
var matmulShapes = [][3]int{{1, 1, 1}, {1, 64, 768}, {7, 32, 32}, {6, 16, 16}, {13, 17, 19}, {5, 3, 40},
	{64, 64, 64}, {128, 768, 64}, {3, 0, 4}, {0, 4, 5}, {4, 5, 0}, {33, 100, 1}}

func TestMmMatchesPortable(t *testing.T) {
	for _, s := range matmulShapes {
		for _, dt := range []executor.ScalarType{executor.Float32, executor.Float64, executor.Int64} {
			for _, special := range []bool{false, true} {
				t.Run(fmt.Sprintf("%v/%s/%v", s, executor.DTypeName(dt), special), func(t *testing.T) {
					differ(t, "aten::mm.out", matmulTol, func(r *rand.Rand) []any {
						out := newTensor(dt, s[0], s[2])
						return []any{randMat(r, dt, special, s[0], s[1]), randMat(r, dt, special, s[1], s[2]), out, out}
					})
				})
			}
		}
	}
	// Mismatched inner dims and a wrong out fail as the portable kernel fails.
	differ(t, "aten::mm.out", matmulTol, func(r *rand.Rand) []any {
		return []any{randTensor(r, executor.Float32, false, 1, 2, 3), randTensor(r, executor.Float32, false, 1, 4, 5), newTensor(executor.Float32, 2, 5), none}
	})
	differ(t, "aten::mm.out", matmulTol, func(r *rand.Rand) []any {
		return []any{randTensor(r, executor.Float32, false, 1, 2, 3), randTensor(r, executor.Float32, false, 1, 3, 5), newTensor(executor.Float32, 2, 4), none}
	})
}
