package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/runtime"
)

func TestEmbeddingMatchesPortable(t *testing.T) {
	for _, c := range []struct {
		w, idx []int
	}{{[]int{10, 4}, []int{3}}, {[]int{30522, 64}, []int{2, 128}}, {[]int{5, 3}, []int{}}, {[]int{5, 0}, []int{4}}, {[]int{7, 2}, []int{0}}} {
		for _, dt := range []runtime.ScalarType{runtime.Float32, runtime.Int64, runtime.Float64} {
			for _, it := range []runtime.ScalarType{runtime.Int64, runtime.Int32} {
				for _, bad := range []bool{false, true} {
					t.Run(fmt.Sprintf("%v/%v/%s/%s/bad=%v", c.w, c.idx, runtime.DTypeName(dt), runtime.DTypeName(it), bad), func(t *testing.T) {
						differ(t, "aten::embedding.out", tol{}, func(r *rand.Rand) []any {
							w := randTensor(r, dt, true, 1, c.w...)
							idx := newTensor(it, c.idx...)
							for i := 0; i < idx.Numel(); i++ {
								v := r.IntN(c.w[0])
								if bad && i == idx.Numel()-1 {
									v = c.w[0]
								}
								if it == runtime.Int64 {
									runtime.Data[int64](idx)[i] = int64(v)
								} else {
									runtime.Data[int32](idx)[i] = int32(v)
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
