package portable

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/executor"
)

func init() {
	register(
		executor.Kernel{Name: "aten::remainder.Tensor_out", DTypes: realBoolTypes, Fn: remainderTensorOut},
		executor.Kernel{Name: "aten::remainder.Scalar_out", DTypes: realBoolTypes, Fn: remainderScalarOut},
	)
}

// remainderOp is Python's modulus: the result has the sign of the divisor.
func remainderOp(common executor.ScalarType) binaryOp {
	m := arithOpmath(common)
	return binaryOp{
		f: func(x, y float64) float64 {
			r := math.Mod(x, y)
			if r != 0 && (y < 0) != (r < 0) {
				r = roundTo(m, r+y)
			}
			return r
		},
		i: func(x, y int64) (int64, error) {
			if y == 0 {
				return 0, arithDivZero("remainder")
			}
			if y == -1 { // avoids MinInt64 % -1 questions; the remainder is 0
				return 0, nil
			}
			r := x % y
			if r != 0 && (r < 0) != (y < 0) {
				r += y
			}
			return r, nil
		},
	}
}

// aten::remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out).
func remainderTensorOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxRemainderTensorOut(args)
	if err != nil {
		return err
	}
	a, b, out := u.Self, u.Other, u.Out
	common := new(typeState).tensor(a).tensor(b).result()
	if common == executor.Bool {
		return fmt.Errorf("%w: remainder is not supported for bool", executor.ErrInvalidArgument)
	}
	return arithBinary(a, b, out, common, remainderOp(common))
}

// aten::remainder.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out).
func remainderScalarOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxRemainderScalarOut(args)
	if err != nil {
		return err
	}
	a, s, out := u.Self, u.Other, u.Out
	common := new(typeState).tensor(a).scalar(s).result()
	switch {
	case common == executor.Bool:
		return fmt.Errorf("%w: remainder is not supported for bool", executor.ErrInvalidArgument)
	case !isFloat(common) && s.I == 0:
		return arithDivZero("remainder")
	}
	return arithBinary(a, scalarTensor(s), out, common, remainderOp(common))
}
