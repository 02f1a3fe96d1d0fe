package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

func randBool(r *rand.Rand, sizes ...int) *executor.Tensor {
	t := newTensor(executor.Bool, sizes...)
	d := executor.Data[bool](t)
	for i := range d {
		d[i] = r.IntN(2) == 0
	}
	return t
}

func TestWhereMatchesPortable(t *testing.T) {
	for _, sh := range [][3][]int{
		{{4, 8}, {4, 8}, {4, 8}}, {{2, 3, 4, 1}, {2, 3, 4, 5}, {}}, {{1, 5}, {3, 5}, {3, 1}}, {{5}, {}, {3, 5}},
		{{2, 12, 128, 1}, {2, 12, 128, 128}, {}}, {{}, {3}, {3}}, {{0, 2}, {2}, {2}}, {{3}, {4}, {3}}, {{}, {}, {}},
	} {
		for _, dt := range [][2]executor.ScalarType{{executor.Float32, executor.Float32}, {executor.Float32, executor.Float64}, {executor.Int64, executor.Int64}} {
			for _, uint8Cond := range []bool{false, true} {
				t.Run(fmt.Sprintf("%v/%s,%s/uint8=%v", sh, executor.DTypeName(dt[0]), executor.DTypeName(dt[1]), uint8Cond), func(t *testing.T) {
					differ(t, "aten::where.self_out", tol{}, func(r *rand.Rand) []any {
						c := randBool(r, sh[0]...)
						if uint8Cond {
							u := newTensor(executor.Uint8, sh[0]...)
							for i, v := range executor.Data[bool](c) {
								if v {
									executor.Data[uint8](u)[i] = 1
								}
							}
							c = u
						}
						x, y := randTensor(r, dt[0], true, 1, sh[1]...), randTensor(r, dt[1], true, 1, sh[2]...)
						shape, ok := broadcast(sh[1], sh[2])
						if ok {
							shape, ok = broadcast(shape, sh[0])
						}
						if !ok {
							shape = sh[1]
						}
						odt := dt[0]
						if dt[1] == executor.Float64 {
							odt = executor.Float64
						}
						out := newTensor(odt, shape...)
						return []any{c, x, y, out, out}
					})
				})
			}
		}
	}
}
