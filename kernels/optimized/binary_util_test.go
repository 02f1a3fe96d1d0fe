package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

// binaryShapes are operand shape pairs: same shape, every broadcast pattern (bias rows,
// columns, scalars, 0-d, both sides), empty, and shapes that do not broadcast.
var binaryShapes = [][2][]int{
	{{7}, {7}}, {{3, 5}, {3, 5}}, {{64, 768}, {64, 768}}, {{5000}, {5000}},
	{{4, 8}, {8}}, {{8}, {4, 8}}, {{4, 8}, {4, 1}}, {{4, 1}, {1, 8}}, {{2, 3, 4}, {3, 1}},
	{{2, 1, 4}, {1, 3, 1}}, {{64, 768}, {768}}, {{3, 64, 128}, {1, 1, 128}}, {{3, 4}, {}},
	{{}, {3, 4}}, {{}, {}}, {{1}, {6}}, {{0, 4}, {4}}, {{3, 4}, {5}}, {{2, 3}, {3, 2}},
}

// binaryCase runs name over binaryShapes × dtype pairs × special values × in-place, with the
// extra arguments (alpha) between other and out.
func binaryCases(t *testing.T, name string, extra ...any) {
	dts := [][2]executor.ScalarType{{executor.Float32, executor.Float32}, {executor.Float32, executor.Float64},
		{executor.Int64, executor.Int64}, {executor.Float32, executor.Int64}}
	for _, sh := range binaryShapes {
		for _, dt := range dts {
			for _, special := range []bool{false, true} {
				for _, inPlace := range []bool{false, true} {
					t.Run(fmt.Sprintf("%v+%v/%s,%s/special=%v/inplace=%v", sh[0], sh[1], executor.DTypeName(dt[0]), executor.DTypeName(dt[1]), special, inPlace), func(t *testing.T) {
						differ(t, name, tol{}, func(r *rand.Rand) []any {
							a := randTensor(r, dt[0], special, 1, sh[0]...)
							b := randTensor(r, dt[1], special, 1, sh[1]...)
							outDT := dt[0]
							if dt[1] == executor.Float64 {
								outDT = executor.Float64
							}
							shape, ok := broadcast(sh[0], sh[1])
							if !ok {
								shape = sh[0]
							}
							out := newTensor(outDT, shape...)
							if inPlace && fmt.Sprint(shape) == fmt.Sprint(sh[0]) && outDT == dt[0] {
								out = a
							}
							vals := append([]any{a, b}, extra...)
							return append(vals, out, out)
						})
					})
				}
			}
		}
	}
	// A channels-last operand (not contiguous) goes to the portable kernel.
	t.Run("channels_last", func(t *testing.T) {
		differ(t, name, tol{}, func(r *rand.Rand) []any {
			a := randTensor(r, executor.Float32, true, 1, 2, 3, 4, 5)
			b, err := executor.NewTensorWithDimOrder(executor.Float32, []int{2, 3, 4, 5}, []uint8{0, 2, 3, 1})
			if err != nil {
				t.Fatal(err)
			}
			copy(executor.Data[float32](b), executor.Data[float32](randTensor(r, executor.Float32, true, 1, 120)))
			out := newTensor(executor.Float32, 2, 3, 4, 5)
			return append(append([]any{a, b}, extra...), out, out)
		})
	})
}

func TestBinaryOverlap(t *testing.T) {
	x := make([]float32, 10)
	for _, c := range []struct {
		out, in []float32
		bad     bool
	}{{x, x, false}, {x[:5], x[5:], false}, {x[1:], x, true}, {x[:4], x[:8], true}, {x, nil, false}} {
		if got := badAlias(c.out, c.in); got != c.bad {
			t.Errorf("badAlias(%d@%p, %d@%p) = %v", len(c.out), c.out, len(c.in), c.in, got)
		}
	}
}
