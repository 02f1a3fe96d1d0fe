package optimized

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

// rsqrtTol: none. The portable kernel now computes rsqrt as the official one does (float32
// sqrt, the quotient rounded to float32; kernels/portable/numerics_test.go holds it bit for bit
// to the official runtime), so the optimized kernel must equal it bit for bit.
var rsqrtTol = tol{}

func TestRsqrtMatchesPortable(t *testing.T) {
	for _, sizes := range [][]int{{1}, {7}, {52, 1}, {3, 5000}, {0}, {}} {
		for _, dt := range []executor.ScalarType{executor.Float32, executor.Float64, executor.Int32} {
			for _, special := range []bool{false, true} {
				for _, inPlace := range []bool{false, true} {
					t.Run(fmt.Sprintf("%v/%s/special=%v/inplace=%v", sizes, executor.DTypeName(dt), special, inPlace), func(t *testing.T) {
						differ(t, "aten::rsqrt.out", rsqrtTol, func(r *rand.Rand) []any {
							x := randTensor(r, dt, special, 4, sizes...)
							// Mostly positive, as rsqrt's input is (a variance plus eps).
							if dt == executor.Float32 {
								for i, v := range executor.Data[float32](x) {
									if v < 0 && i%4 != 0 {
										executor.Data[float32](x)[i] = -v
									}
								}
							}
							out := newTensor(executor.Float32, sizes...)
							if dt == executor.Float64 {
								out = newTensor(dt, sizes...)
							}
							if inPlace && dt != executor.Int32 {
								out = x
							}
							return []any{x, out, out}
						})
					})
				}
			}
		}
	}
}
