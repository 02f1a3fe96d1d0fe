package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::var.correction_out", DTypes: floatTypes, Fn: varCorrectionOut},
		executor.Kernel{Name: "aten::var.out", DTypes: floatTypes, Fn: varOut},
	)
}

// aten::var.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None,
// bool keepdim=False, Tensor(a!) out): sum((x - mean)^2) / max(0, N - correction) over dim
// (None or [] = every dim), correction 1 when None. Floating input and out only; computed in
// float64 with two passes.
func varCorrectionOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxVarCorrectionOut(args)
	if err != nil {
		return err
	}
	return varCore(u.Self, u.Dim.Val, varCorrection(u.Correction), u.Keepdim, u.Out, 4, nil)
}

// varCorrection is the correction of var.correction_out and var_mean.correction_out: 1 when
// None.
func varCorrection(c optional[scalar]) float64 {
	if !c.OK {
		return 1
	}
	return c.Val.F
}

// aten::var.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *,
// Tensor(a!) out): correction 1 when unbiased, else 0.
func varOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxVarOut(args)
	if err != nil {
		return err
	}
	self, dims, unbiased, keepdim, out := u.Self, u.Dim.Val, u.Unbiased, u.Keepdim, u.Out
	return varCore(self, dims, reduceBool(unbiased), keepdim, out, 4, nil)
}

// varCore follows PyTorch at the edges: with no degrees of freedom left the result is
// sum2 / 0, so inf, or NaN when every deviation is 0 or nothing is reduced. (ExecuTorch's
// portable kernel writes NaN whenever N - correction <= 0.) A non-nil mean also receives the
// means (var_mean).
func varCore(self *executor.Tensor, dims []int64, correction float64, keepdim bool, out *executor.Tensor, outIdx int, mean *executor.Tensor) error {
	if !isFloat(self.ScalarType()) {
		return unbox.ArgError(0, "self", "var needs a floating input, got %s", executor.DTypeName(self.ScalarType()))
	}
	if !isFloat(out.ScalarType()) {
		return unbox.ArgError(outIdx, "out", "var needs a floating out, got %s", executor.DTypeName(out.ScalarType()))
	}
	set, err := reduceDimList(self.Dim(), dims, 1, "dim")
	if err != nil {
		return err
	}
	p := newReducePlan(self.Sizes(), set, keepdim)
	if err := resize(out, p.outSizes); err != nil {
		return err
	}
	if mean != nil {
		if !isFloat(mean.ScalarType()) {
			return unbox.ArgError(outIdx+1, "out1", "var_mean needs a floating mean out, got %s", executor.DTypeName(mean.ScalarType()))
		}
		if err := resize(mean, p.outSizes); err != nil {
			return err
		}
	}
	// The official compute_variance works in out's type: the sum, the mean, each deviation,
	// its square and the sum of squares are each rounded to it; only the final division by
	// the denominator is float64. A denominator <= 0 gives NaN.
	ot := out.ScalarType()
	rt := func(v float64) float64 { return roundTo(ot, v) }
	x := loadF64(self)
	for i, v := range x {
		x[i] = rt(v)
	}
	n := float64(p.redNumel())
	denom := n - correction
	r := make([]float64, p.outNumel())
	means := make([]float64, p.outNumel())
	sums := reduceSumIn(p, x, ot)
	for o, b := range p.base {
		if n == 0 || denom <= 0 {
			r[o], means[o] = math.NaN(), math.NaN()
			continue
		}
		mean := rt(sums[o] / rt(n))
		means[o] = mean
		sum2 := math.Copysign(0, -1)
		for _, k := range p.inner {
			d := rt(x[b+k] - mean)
			sum2 = rt(sum2 + rt(d*d))
		}
		r[o] = sum2 / denom
	}
	storeF64(out, r)
	if mean != nil {
		storeF64(mean, means)
	}
	return nil
}
