package portable

import (
	"math"

	"github.com/etgo/etgo/runtime"
)

func init() {
	register(
		runtime.Kernel{Name: "aten::var.correction_out", DTypes: floatTypes, Fn: varCorrectionOut},
		runtime.Kernel{Name: "aten::var.out", DTypes: floatTypes, Fn: varOut},
	)
}

// aten::var.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None,
// bool keepdim=False, Tensor(a!) out): sum((x - mean)^2) / max(0, N - correction) over dim
// (None or [] = every dim), correction 1 when None. Floating input and out only; computed in
// float64 with two passes.
func varCorrectionOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 6); err != nil {
		return err
	}
	c, err := varCorrectionArgs(args)
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 4, "out")
	if err != nil {
		return err
	}
	return varCore(c.self, c.dims, c.correction, c.keepdim, out, 4, nil)
}

// varCorrectionArgs are the leading arguments of var.correction_out and var_mean.correction_out:
// (Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False, …).
type varCorrection struct {
	self       *runtime.Tensor
	dims       []int64
	correction float64
	keepdim    bool
}

func varCorrectionArgs(args []*runtime.EValue) (c varCorrection, err error) {
	if c.self, err = tensorArg(args, 0, "self"); err != nil {
		return
	}
	if c.dims, _, err = optIntListArg(args, 1, "dim"); err != nil {
		return
	}
	c.correction = 1
	if v, err := arg(args, 2, "correction"); err != nil {
		return c, err
	} else if !v.IsNone() {
		s, err := scalarArg(args, 2, "correction")
		if err != nil {
			return c, err
		}
		c.correction = s.f
	}
	c.keepdim, err = boolArg(args, 3, "keepdim")
	return
}

// aten::var.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *,
// Tensor(a!) out): correction 1 when unbiased, else 0.
func varOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 6); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	dims, _, err := optIntListArg(args, 1, "dim")
	if err != nil {
		return err
	}
	unbiased, err := boolArg(args, 2, "unbiased")
	if err != nil {
		return err
	}
	keepdim, err := boolArg(args, 3, "keepdim")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 4, "out")
	if err != nil {
		return err
	}
	return varCore(self, dims, reduceBool(unbiased), keepdim, out, 4, nil)
}

// varCore follows PyTorch at the edges: with no degrees of freedom left the result is
// sum2 / 0, so inf, or NaN when every deviation is 0 or nothing is reduced. (ExecuTorch's
// portable kernel writes NaN whenever N - correction <= 0.) A non-nil mean also receives the
// means (var_mean).
func varCore(self *runtime.Tensor, dims []int64, correction float64, keepdim bool, out *runtime.Tensor, outIdx int, mean *runtime.Tensor) error {
	if !isFloat(self.ScalarType()) {
		return argErr(0, "self", "var needs a floating input, got %s", runtime.DTypeName(self.ScalarType()))
	}
	if !isFloat(out.ScalarType()) {
		return argErr(outIdx, "out", "var needs a floating out, got %s", runtime.DTypeName(out.ScalarType()))
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
			return argErr(outIdx+1, "out1", "var_mean needs a floating mean out, got %s", runtime.DTypeName(mean.ScalarType()))
		}
		if err := resize(mean, p.outSizes); err != nil {
			return err
		}
	}
	x := loadF64(self)
	n := float64(p.redNumel())
	denom := math.Max(0, n-correction)
	r := make([]float64, p.outNumel())
	means := make([]float64, p.outNumel())
	for o, b := range p.base {
		sum := 0.0
		for _, k := range p.inner {
			sum += x[b+k]
		}
		mean := sum / n
		means[o] = mean
		sum2 := 0.0
		for _, k := range p.inner {
			d := x[b+k] - mean
			sum2 += d * d
		}
		r[o] = sum2 / denom
	}
	storeF64(out, r)
	if mean != nil {
		storeF64(mean, means)
	}
	return nil
}
