package optimized

import "github.com/etgo/etgo/executor"

func init() {
	register("aten::eq.Scalar_out", realBoolDTypes, eqScalarOut)
}

// aten::eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out). The fast path is a
// contiguous float32 self against a Double scalar into a contiguous Bool out, which the portable
// kernel compares in float32 with the scalar rounded to float32 (attention's x == -inf mask
// over every score): the same comparison without a call per element, threaded. Everything else
// is the portable kernel's.
func eqScalarOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxEqScalarOut(args)
	if err != nil {
		return err
	}
	self, out := a.Self, a.Out
	if !a.Other.IsFloat || self.ScalarType() != executor.Float32 || out.ScalarType() != executor.Bool ||
		!self.IsContiguous() || out.Resize(self.Sizes()) != nil || !out.IsContiguous() {
		return fallback("aten::eq.Scalar_out")(ctx, args)
	}
	x, r := executor.Data[float32](self), executor.Data[bool](out)
	y := float32(a.Other.F)
	parallelFor(threads, len(x), len(x), func(lo, hi int) {
		xs, rs := x[lo:hi], r[lo:hi]
		for k, v := range xs {
			rs[k] = v == y
		}
	})
	return nil
}
