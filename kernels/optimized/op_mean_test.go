package optimized

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
)

// meanTol: none. The portable kernel now sums in float32 in the official kernel's order (its
// numerics sweep holds it bit for bit to the official runtime), so the optimized kernel must
// equal it bit for bit.
var meanTol = tol{}

// meanSpecials are the harness's special values, the ±1e30 pair included: both kernels resolve
// its cancellation in float32 the same way now.
var meanSpecials = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e-40, 1e30, -1e30}

func TestMeanMatchesPortable(t *testing.T) {
	for _, sizes := range [][]int{{1}, {7}, {3, 5}, {2, 3, 17}, {52, 768}, {2, 1000}, {1, 0}, {5, 1}, {}} {
		for _, dims := range [][]int64{{-1}, {int64(len(sizes)) - 1}, {0}, {0, -1}, nil, {5}} {
			for _, dt := range []executor.ScalarType{executor.Float32, executor.Float64} {
				for _, keep := range []bool{false, true} {
					for _, special := range []bool{false, true} {
						for _, dtype := range []any{none, int64(executor.Float32), int64(executor.Float64)} {
							t.Run(fmt.Sprintf("%v/%v/%s/keep=%v/special=%v/%v", sizes, dims, executor.DTypeName(dt), keep, special, dtype), func(t *testing.T) {
								differ(t, "aten::mean.out", meanTol, func(r *rand.Rand) []any {
									var sp []float64
									if special {
										sp = meanSpecials
									}
									x := randTensorOf(r, dt, sp, 1, sizes...)
									out := newTensor(dt)
									var dim any = none
									if dims != nil {
										dim = dims
									}
									return []any{x, dim, keep, dtype, out, out}
								})
							})
						}
					}
				}
			}
		}
	}
}

// TestMeanOfficialSum: the fast path sums a row in order in float32, as the official kernel, not
// in float64: 1 + 2⁻²⁴ + 2⁻²⁴ stays 1 in float32 (each addition rounds back), where float64 keeps
// 1 + 2⁻²³.
func TestMeanOfficialSum(t *testing.T) {
	x := newTensor(executor.Float32, 1, 3)
	copy(executor.Data[float32](x), []float32{1, 0x1p-24, 0x1p-24})
	out := newTensor(executor.Float32, 1)
	args := []any{x, []int64{-1}, false, none, out, out}
	evs := make([]*executor.EValue, len(args))
	for i, v := range args {
		evs[i] = ev(v)
	}
	if err := kernelFn(t, Kernels(1), "aten::mean.out")(nil, evs); err != nil {
		t.Fatal(err)
	}
	if got := executor.Data[float32](out)[0]; got != float32(1)/3 {
		t.Errorf("mean %v, want %v (float32 running sum)", got, float32(1)/3)
	}
}
