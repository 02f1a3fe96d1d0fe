package optimized

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/gemm"
)

func init() {
	register("aten::_softmax.out", floatDTypes, softmaxOut)
}

var floatDTypes = []executor.ScalarType{executor.Float32, executor.Float64, executor.Float16, executor.BFloat16}

// aten::_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out). The fast
// path is float32, contiguous, softmax over the last dim (attention's scores): the exponentials
// are internal/gemm's vectorised XNNPACK exp (ExpMinusMax), summed in float32, then scaled by
// the reciprocal of the sum. That differs from the portable float64 libm computation by a few
// float32 ulp (the test's tolerance); a line with a NaN or an infinite max is NaN in both.
// Everything else is the portable kernel's.
func softmaxOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxSoftmaxOut(args)
	if err != nil {
		return err
	}
	n, ok := lastDimF32(a.Self, a.Out, a.Dim, a.HalfToFloat)
	if !ok {
		return fallback("aten::_softmax.out")(ctx, args)
	}
	x, y := executor.Data[float32](a.Self), executor.Data[float32](a.Out)
	rows := len(x) / n
	parallelFor(threads, rows, len(x), func(lo, hi int) {
		for r := lo; r < hi; r++ {
			softmaxRow(y[r*n:(r+1)*n], x[r*n:(r+1)*n])
		}
	})
	return nil
}

// lastDimF32 reports whether a (log_)softmax call takes the fast path (float32 in and out,
// both contiguous, dim the last and not empty) and, having resized out, the line length.
func lastDimF32(self, out *executor.Tensor, dim int64, halfToFloat bool) (int, bool) {
	if halfToFloat || self.ScalarType() != executor.Float32 || out.ScalarType() != executor.Float32 ||
		!self.IsContiguous() || self.Dim() == 0 || self.Numel() == 0 {
		return 0, false
	}
	r := int64(self.Dim())
	if dim != -1 && dim != r-1 {
		return 0, false
	}
	if out.Resize(self.Sizes()) != nil || !out.IsContiguous() {
		return 0, false // the portable kernel says what is wrong
	}
	return self.Size(self.Dim() - 1), true
}

// rowMax is the line's max, NaN if it has a NaN (what makes the whole line NaN).
func rowMax(x []float32) float32 {
	m := float32(math.Inf(-1))
	for _, v := range x {
		if v != v {
			return v
		}
		if v > m {
			m = v
		}
	}
	return m
}

func fillNaN(y []float32) {
	nan := float32(math.NaN())
	for i := range y {
		y[i] = nan
	}
}

func softmaxRow(y, x []float32) {
	m := rowMax(x)
	if m != m || math.IsInf(float64(m), 0) {
		fillNaN(y)
		return
	}
	sum := gemm.ExpMinusMax(y, x, m)
	gemm.Scale(y, 1/sum)
}
