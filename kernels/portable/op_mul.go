package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(
		executor.Kernel{Name: "aten::mul.out", DTypes: realBoolTypes, Fn: mulOut},
		executor.Kernel{Name: "aten::mul.Scalar_out", DTypes: realBoolTypes, Fn: mulScalarOut},
	)
}

var mulOp = binaryOp{
	f: func(x, y float64) float64 { return x * y },
	i: func(x, y int64) (int64, error) { return x * y, nil },
}

// aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out).
func mulOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxMulOut(args)
	if err != nil {
		return err
	}
	a, b, out := u.Self, u.Other, u.Out
	if ok, err := arithFastF32(a, b, out, arithF32Mul); ok {
		return err
	}
	return arithBinary(a, b, out, new(typeState).tensor(a).tensor(b).result(), mulOp)
}

// aten::mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out).
func mulScalarOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxMulScalarOut(args)
	if err != nil {
		return err
	}
	a, s, out := u.Self, u.Other, u.Out
	common := new(typeState).tensor(a).scalar(s).result()
	if common == executor.Float32 {
		if ok, err := arithFastF32Scalar(a, out, float32(s.F), arithF32Mul, false); ok {
			return err
		}
	}
	return arithBinary(a, scalarTensor(s), out, common, mulOp)
}
