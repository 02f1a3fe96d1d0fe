package optimized

import (
	"github.com/etgo/etgo/internal/gemm"
	"github.com/etgo/etgo/runtime"
)

func init() {
	register("aten::add.out", realBoolDTypes, addOut)
}

var realBoolDTypes = []runtime.ScalarType{runtime.Float32, runtime.Float64, runtime.Float16, runtime.BFloat16,
	runtime.Uint8, runtime.Int8, runtime.Int16, runtime.Int32, runtime.Int64, runtime.Bool}

// aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out): float32 with
// broadcasting (binaryF32), the same-shape alpha = 1 rows on internal/gemm's vector add;
// bitwise the portable result. Everything else is the portable kernel's.
func addOut(ctx *runtime.KernelContext, args []*runtime.EValue, threads int) error {
	a, err := unboxAddOut(args)
	if err != nil {
		return err
	}
	op := rowAddAlpha(a.Alpha.f)
	if a.Alpha.f == 1 && !a.Alpha.isBool {
		op = addRow
	}
	if a.Alpha.isBool || !binaryF32(threads, a.Self, a.Other, a.Out, op) {
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
