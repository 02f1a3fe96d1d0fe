package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::rsub.Scalar_out", DTypes: realTypes, Fn: rsubScalarOut})
}

// aten::rsub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out):
// other - alpha*self.
func rsubScalarOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxRsubScalarOut(args)
	if err != nil {
		return err
	}
	a, s, alpha, out := u.Self, u.Other, u.Alpha, u.Out
	if a.ScalarType() == executor.Bool || s.IsBool {
		return subBoolErr()
	}
	common := new(typeState).tensor(a).scalar(s).result()
	if err := subCheckAlpha(alpha, common); err != nil {
		return err
	}
	if isFloat(common) && alpha.F == 1 {
		if ok, err := arithFastF32Scalar(a, out, float32(s.F), arithF32Sub, true); ok {
			return err
		}
	}
	al := roundTo(arithOpmath(common), alpha.F)
	return arithBinary(scalarTensor(s), a, out, common, binaryOp{
		f: func(x, y float64) float64 { return x - al*y },
		i: func(x, y int64) (int64, error) { return x - alpha.I*y, nil },
	})
}
