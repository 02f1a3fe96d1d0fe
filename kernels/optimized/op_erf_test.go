package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

// erfTol: one float32 ulp of the result (|erf| ≤ 1, so 1.2e-7 relative), which the sweep in
// internal/gemm finds no value using.
var erfTol = tol{rel: 1.2e-7}

func TestErfMatchesPortable(t *testing.T) {
	for _, sizes := range [][]int{{1}, {7}, {1023}, {3, 1025}, {196, 1024}, {0}} {
		for _, dt := range []executor.ScalarType{executor.Float32, executor.Float64, executor.Int32, executor.Bool} {
			for _, special := range []bool{false, true} {
				for _, scale := range []float64{1, 3} {
					t.Run(fmt.Sprintf("%v/%s/%v/%v", sizes, executor.DTypeName(dt), special, scale), func(t *testing.T) {
						differ(t, "aten::erf.out", erfTol, func(r *rand.Rand) []any {
							odt := dt
							if dt == executor.Int32 || dt == executor.Bool {
								odt = executor.Float32
							}
							out := newTensor(odt, sizes...)
							return []any{randTensor(r, dt, special, scale, sizes...), out, out}
						})
					})
				}
			}
		}
	}
	// An integral out is refused by both.
	differ(t, "aten::erf.out", erfTol, func(r *rand.Rand) []any {
		out := newTensor(executor.Int32, 4)
		return []any{randTensor(r, executor.Float32, false, 1, 4), out, out}
	})
}
