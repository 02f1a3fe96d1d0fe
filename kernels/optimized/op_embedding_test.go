package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestEmbeddingMatchesPortable(t *testing.T) {
	for _, c := range []struct {
		w, idx []int
	}{{[]int{10, 4}, []int{3}}, {[]int{30522, 64}, []int{2, 128}}, {[]int{5, 3}, []int{}}, {[]int{5, 0}, []int{4}}, {[]int{7, 2}, []int{0}}} {
		for _, dt := range []executor.ScalarType{executor.Float32, executor.Int64, executor.Float64} {
			for _, it := range []executor.ScalarType{executor.Int64, executor.Int32} {
				for _, bad := range []bool{false, true} {
					t.Run(fmt.Sprintf("%v/%v/%s/%s/bad=%v", c.w, c.idx, executor.DTypeName(dt), executor.DTypeName(it), bad), func(t *testing.T) {
						differ(t, "aten::embedding.out", tol{}, func(r *rand.Rand) []any {
							w := randTensor(r, dt, true, 1, c.w...)
							idx := newTensor(it, c.idx...)
							for i := 0; i < idx.Numel(); i++ {
								v := r.IntN(c.w[0])
								if bad && i == idx.Numel()-1 {
									v = c.w[0]
								}
								if it == executor.Int64 {
									executor.Data[int64](idx)[i] = int64(v)
								} else {
									executor.Data[int32](idx)[i] = int32(v)
								}
							}
							out := newTensor(dt, append(append([]int(nil), c.idx...), c.w[1])...)
							return []any{w, idx, -1, false, false, out, out}
						})
					})
				}
			}
		}
	}
}
