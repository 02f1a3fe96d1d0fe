package optimized

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/gemm"
)

func init() {
	register("aten::_log_softmax.out", floatDTypes, logSoftmaxOut)
}

// aten::_log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out): the fast
// path is softmax's (float32, contiguous, last dim): x - max - log(sum exp(x - max)), the sum
// from the vectorised exp into a scratch line, the log in float64. Within the test's
// tolerance of the portable kernel; everything else is the portable kernel's.
func logSoftmaxOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxLogSoftmaxOut(args)
	if err != nil {
		return err
	}
	n, ok := lastDimF32(a.Self, a.Out, a.Dim, a.HalfToFloat)
	if !ok {
		return fallback("aten::_log_softmax.out")(ctx, args)
	}
	x, y := executor.Data[float32](a.Self), executor.Data[float32](a.Out)
	rows := len(x) / n
	parallelFor(threads, rows, len(x), func(lo, hi int) {
		// The exponentials go to a scratch line: out may be self (an in-place program), and x
		// is read again after the sum.
		e := make([]float32, n)
		for r := lo; r < hi; r++ {
			xr, yr := x[r*n:(r+1)*n], y[r*n:(r+1)*n]
			m := rowMax(xr)
			if m != m || math.IsInf(float64(m), 0) {
				fillNaN(yr)
				continue
			}
			sum := gemm.ExpMinusMax(e, xr, m)
			// In float64 as the portable kernel: x - max cancels exactly, and a float32
			// max + log(sum) would lose the log next to a large max.
			ls, mf := math.Log(float64(sum)), float64(m)
			for i, v := range xr {
				yr[i] = float32(float64(v) - mf - ls)
			}
		}
	})
	return nil
}
