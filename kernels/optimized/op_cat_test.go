package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestCatMatchesPortable(t *testing.T) {
	for _, c := range []struct {
		shapes [][]int
		dim    int
	}{
		{[][]int{{2, 3}, {4, 3}}, 0}, {[][]int{{2, 3}, {2, 5}, {2, 1}}, 1}, {[][]int{{2, 3}, {2, 5}}, -1},
		{[][]int{{1, 12, 128, 64}, {1, 12, 1, 64}}, 2}, {[][]int{{0}, {3}}, 0}, {[][]int{{2, 0}, {2, 3}}, 1},
		{[][]int{{2, 3}, {3, 3}}, 1}, {[][]int{{}}, 0}, {[][]int{{3}}, 0}, {[][]int{{2, 3}}, 2},
		// A rotary embedding's halves interleaved (interleave32), and three of them, and one
		// element per row along a dim followed by 1s.
		{[][]int{{1, 1, 12, 32, 1}, {1, 1, 12, 32, 1}}, -1}, {[][]int{{4, 1}, {4, 1}, {4, 1}}, 1},
		{[][]int{{3, 1, 1}, {3, 1, 1}}, 1},
	} {
		for _, dts := range [][2]executor.ScalarType{{executor.Float32, executor.Float32}, {executor.Int64, executor.Int64}, {executor.Float32, executor.Float64}} {
			t.Run(fmt.Sprintf("%v/%d/%s,%s", c.shapes, c.dim, executor.DTypeName(dts[0]), executor.DTypeName(dts[1])), func(t *testing.T) {
				differ(t, "aten::cat.out", tol{}, func(r *rand.Rand) []any {
					var ts []*executor.Tensor
					for i, s := range c.shapes {
						dt := dts[0]
						if i == len(c.shapes)-1 {
							dt = dts[1]
						}
						ts = append(ts, randTensor(r, dt, true, 1, s...))
					}
					outDT := dts[1]
					if dts[0] == executor.Float32 && dts[1] == executor.Float64 {
						outDT = executor.Float64
					}
					// A dynamic out of the rank of the first tensor not skipped ([0]-shaped), large
					// enough for every case: the kernels size it.
					rank := 1
					for _, s := range c.shapes {
						if len(s) != 1 || s[0] != 0 {
							rank = len(s)
							break
						}
					}
					upper := make([]int, rank)
					for i := range upper {
						upper[i] = 1
						for _, s := range c.shapes {
							if len(s) == rank {
								upper[i] += s[i]
							}
						}
					}
					out, err := executor.NewDynamicTensor(outDT, upper...)
					if err != nil {
						t.Fatal(err)
					}
					return []any{ts, c.dim, out, out}
				})
			})
		}
	}
}
