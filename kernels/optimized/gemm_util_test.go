package optimized

import (
	"math"
	"math/rand/v2"

	"github.com/etgo/etgo/executor"
)

// matmulTol is how far the packed GEMM may be from the portable kernel's float32 product: both
// accumulate each element over k in order, in float32, but the packed kernel's multiply-adds are
// fused (one rounding instead of two), so they differ by a few ulp of the partial sums.
var matmulTol = tol{abs: 2e-4, rel: 1e-4}

// matmulSpecials are the non-finite and edge values of the product tests (see matmulTol).
var matmulSpecials = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e-40}

// randMat is a product operand: N(0, 1) with, when special, matmulSpecials sprinkled in.
func randMat(r *rand.Rand, dt executor.ScalarType, special bool, sizes ...int) *executor.Tensor {
	var sp []float64
	if special {
		sp = matmulSpecials
	}
	return randTensorOf(r, dt, sp, 1, sizes...)
}
