package optimized

import "github.com/etgo/etgo/executor"

func init() {
	register("aten::sub.out", realBoolDTypes, subOut)
}

// aten::sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out): float32 with
// broadcasting (binaryF32); bitwise the portable result. Everything else (and a bool alpha,
// which the portable kernel refuses) is the portable kernel's.
func subOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxSubOut(args)
	if err != nil {
		return err
	}
	// The portable kernel rounds alpha to the computation's float type (float32 here) first.
	op := rowSubAlpha(float64(float32(a.Alpha.F)))
	if a.Alpha.F == 1 {
		op = rowSub
	}
	if a.Alpha.IsBool || !binaryF32(threads, a.Self, a.Other, a.Out, op) {
		return fallback("aten::sub.out")(ctx, args)
	}
	return nil
}
