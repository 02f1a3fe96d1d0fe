package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestCopyMatchesPortable(t *testing.T) {
	for _, c := range []struct{ self, src []int }{
		{[]int{4, 8}, []int{4, 8}}, {[]int{128, 768}, []int{128, 768}}, {[]int{4, 8}, []int{8}}, {[]int{}, []int{}},
		{[]int{0, 3}, []int{0, 3}}, {[]int{3}, []int{4}},
	} {
		for _, dts := range [][2]executor.ScalarType{{executor.Float32, executor.Float32}, {executor.Int64, executor.Int64}, {executor.Float32, executor.Float64}} {
			t.Run(fmt.Sprintf("%v<-%v/%s<-%s", c.self, c.src, executor.DTypeName(dts[0]), executor.DTypeName(dts[1])), func(t *testing.T) {
				differ(t, "aten::copy.out", tol{}, func(r *rand.Rand) []any {
					out := newTensor(dts[0], c.self...)
					return []any{randTensor(r, dts[0], true, 1, c.self...), randTensor(r, dts[1], true, 1, c.src...), false, out, out}
				})
			})
		}
	}
}
