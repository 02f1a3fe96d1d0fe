package optimized

import "github.com/etgo/etgo/executor"

func init() {
	register("aten::div.out", realBoolDTypes, divOut)
}

// aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out): true division, float32 with
// broadcasting (binaryF32); bitwise the portable result (a correctly rounded quotient).
// Everything else is the portable kernel's.
func divOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxDivOut(args)
	if err != nil {
		return err
	}
	if !binaryF32(threads, a.Self, a.Other, a.Out, rowDiv) {
		return fallback("aten::div.out")(ctx, args)
	}
	return nil
}
