package optimized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/gemm"
)

func init() {
	register("aten::add.out", realBoolDTypes, addOut)
}

var realBoolDTypes = []executor.ScalarType{executor.Float32, executor.Float64, executor.Float16, executor.BFloat16,
	executor.Uint8, executor.Int8, executor.Int16, executor.Int32, executor.Int64, executor.Bool}

// aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out): float32 with
// broadcasting (binaryF32), the same-shape alpha = 1 rows on internal/gemm's vector add;
// bitwise the portable result. Everything else is the portable kernel's.
func addOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxAddOut(args)
	if err != nil {
		return err
	}
	op := rowAddAlpha(a.Alpha.F)
	if a.Alpha.F == 1 && !a.Alpha.IsBool {
		op = addRow
	}
	if a.Alpha.IsBool || !binaryF32(threads, a.Self, a.Other, a.Out, op) {
		return fallback("aten::add.out")(ctx, args)
	}
	return nil
}

func addRow(dst, x, y []float32, xs, ys int) {
	if xs == 1 && ys == 1 {
		gemm.Add(dst, x, y)
		return
	}
	rowAdd(dst, x, y, xs, ys)
}
