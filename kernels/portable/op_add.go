package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::add.out", DTypes: realBoolTypes, Fn: addOut},
		executor.Kernel{Name: "aten::add.Scalar_out", DTypes: realBoolTypes, Fn: addScalarOut},
	)
}

// aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out): self + alpha*other.
func addOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxAddOut(args)
	if err != nil {
		return err
	}
	a, b, alpha, out := u.Self, u.Other, u.Alpha, u.Out
	return addAlpha(a, b, out, alpha, new(typeState).tensor(a).tensor(b).result())
}

// aten::add.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out).
func addScalarOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxAddScalarOut(args)
	if err != nil {
		return err
	}
	a, s, alpha, out := u.Self, u.Other, u.Alpha, u.Out
	return addAlpha(a, scalarTensor(s), out, alpha, new(typeState).tensor(a).scalar(s).result())
}

// addAlpha computes a + alpha*b in the computation type common.
func addAlpha(a, b, out *executor.Tensor, alpha scalar, common executor.ScalarType) error {
	if alpha.IsFloat && !isFloat(common) {
		return unbox.ArgError(2, "alpha", "a floating alpha needs a floating result, not %s", executor.DTypeName(common))
	}
	f := func(x, y float64) float64 { return x + alpha.F*y }
	if _, half := halfRounder(common); half {
		// The official kernel computes float16/bfloat16 in float: alpha converted to float,
		// the product and the sum each rounded to float before the result is converted.
		// (float32 keeps the one-rounding form etgo's optimized add shares.)
		al := float32(alpha.F)
		f = func(x, y float64) float64 { return float64(float32(x) + float32(al*float32(y))) }
	}
	return binaryAs(a, b, out, common, binaryOp{
		f: f,
		i: func(x, y int64) (int64, error) { return x + alpha.I*y, nil },
	})
}
