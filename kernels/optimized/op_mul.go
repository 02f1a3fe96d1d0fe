package optimized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/gemm"
)

func init() {
	register("aten::mul.out", realBoolDTypes, mulOut)
}

// aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out): float32 with broadcasting
// (binaryF32), same-shape rows on internal/gemm's vector multiply; bitwise the portable
// result. Everything else is the portable kernel's.
func mulOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxMulOut(args)
	if err != nil {
		return err
	}
	if !binaryF32(threads, a.Self, a.Other, a.Out, mulRow) {
		return fallback("aten::mul.out")(ctx, args)
	}
	return nil
}

func mulRow(dst, x, y []float32, xs, ys int) {
	if xs == 1 && ys == 1 {
		gemm.Mul(dst, x, y)
		return
	}
	rowMul(dst, x, y, xs, ys)
}
