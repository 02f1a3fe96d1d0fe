package portable

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/executor"
)

func init() {
	register(
		executor.Kernel{Name: "aten::fmod.Tensor_out", DTypes: realBoolTypes, Fn: fmodTensorOut},
		executor.Kernel{Name: "aten::fmod.Scalar_out", DTypes: realBoolTypes, Fn: fmodScalarOut},
	)
}

// fmodOp is C's fmod: the remainder of division rounded toward zero, with the dividend's sign.
var fmodOp = binaryOp{
	f: math.Mod,
	i: func(x, y int64) (int64, error) {
		if y == 0 {
			return 0, arithDivZero("fmod")
		}
		if y == -1 {
			return 0, nil
		}
		return x % y, nil
	},
}

// aten::fmod.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out).
func fmodTensorOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxFmodTensorOut(args)
	if err != nil {
		return err
	}
	a, b, out := u.Self, u.Other, u.Out
	common := new(typeState).tensor(a).tensor(b).result()
	if common == executor.Bool {
		return fmt.Errorf("%w: fmod is not supported for bool", executor.ErrInvalidArgument)
	}
	return arithBinary(a, b, out, common, fmodOp)
}

// aten::fmod.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out).
func fmodScalarOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxFmodScalarOut(args)
	if err != nil {
		return err
	}
	a, s, out := u.Self, u.Other, u.Out
	common := new(typeState).tensor(a).scalar(s).result()
	switch {
	case common == executor.Bool:
		return fmt.Errorf("%w: fmod is not supported for bool", executor.ErrInvalidArgument)
	case !isFloat(common) && s.I == 0:
		return arithDivZero("fmod")
	}
	return arithBinary(a, scalarTensor(s), out, common, fmodOp)
}
