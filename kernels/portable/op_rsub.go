package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::rsub.Scalar_out", DTypes: realTypes, Fn: rsubScalarOut})
}

// aten::rsub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out):
// other - alpha*self.
func rsubScalarOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 5); err != nil {
		return err
	}
	a, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	s, err := scalarArg(args, 1, "other")
	if err != nil {
		return err
	}
	alpha, err := scalarArg(args, 2, "alpha")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 3, "out")
	if err != nil {
		return err
	}
	if a.ScalarType() == runtime.Bool || s.isBool {
		return subBoolErr()
	}
	common := new(typeState).tensor(a).scalar(s).result()
	if err := subCheckAlpha(alpha, common); err != nil {
		return err
	}
	if isFloat(common) && alpha.f == 1 {
		if ok, err := arithFastF32Scalar(a, out, float32(s.f), arithF32Sub, true); ok {
			return err
		}
	}
	al := roundTo(arithOpmath(common), alpha.f)
	return arithBinary(scalarTensor(s), a, out, common, binaryOp{
		f: func(x, y float64) float64 { return x - al*y },
		i: func(x, y int64) (int64, error) { return x - alpha.i*y, nil },
	})
}
