package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestBmmMatchesPortable(t *testing.T) {
	for _, batch := range []int{1, 3, 12} {
		for _, s := range matmulShapes {
			for _, dt := range []executor.ScalarType{executor.Float32, executor.Float64} {
				for _, special := range []bool{false, true} {
					t.Run(fmt.Sprintf("%d/%v/%s/%v", batch, s, executor.DTypeName(dt), special), func(t *testing.T) {
						differ(t, "aten::bmm.out", matmulTol, func(r *rand.Rand) []any {
							out := newTensor(dt, batch, s[0], s[2])
							return []any{randMat(r, dt, special, batch, s[0], s[1]), randMat(r, dt, special, batch, s[1], s[2]), out, out}
						})
					})
				}
			}
		}
	}
	differ(t, "aten::bmm.out", matmulTol, func(r *rand.Rand) []any {
		return []any{randTensor(r, executor.Float32, false, 1, 2, 2, 3), randTensor(r, executor.Float32, false, 1, 3, 3, 5), newTensor(executor.Float32, 2, 2, 5), none}
	})
}
