package portable

import (
	"fmt"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::sub.out", DTypes: realTypes, Fn: subOut},
		executor.Kernel{Name: "aten::sub.Scalar_out", DTypes: realTypes, Fn: subScalarOut},
	)
}

// aten::sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out): self - alpha*other.
func subOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxSubOut(args)
	if err != nil {
		return err
	}
	a, b, alpha, out := u.Self, u.Other, u.Alpha, u.Out
	if a.ScalarType() == executor.Bool || b.ScalarType() == executor.Bool {
		return subBoolErr()
	}
	common := new(typeState).tensor(a).tensor(b).result()
	if err := subCheckAlpha(alpha, common); err != nil {
		return err
	}
	if alpha.F == 1 {
		if ok, err := arithFastF32(a, b, out, arithF32Sub); ok {
			return err
		}
	}
	al := roundTo(arithOpmath(common), alpha.F)
	f := func(x, y float64) float64 { return x - al*y }
	if _, half := halfRounder(common); half {
		// float16/bfloat16 in float, as the official kernel (a + (-alpha)·b): the product
		// and the difference each rounded to float before the result is converted.
		al32 := float32(al)
		f = func(x, y float64) float64 { return float64(float32(x) - float32(al32*float32(y))) }
	}
	return arithBinary(a, b, out, common, binaryOp{
		f: f,
		i: func(x, y int64) (int64, error) { return x - alpha.I*y, nil },
	})
}

// aten::sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out).
func subScalarOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxSubScalarOut(args)
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
	// As ExecuTorch does, alpha*other is formed once in the computation type.
	var c scalar
	if isFloat(common) {
		m := arithOpmath(common)
		c = scalar{F: roundTo(m, roundTo(m, alpha.F)*roundTo(m, s.F)), IsFloat: true}
		if ok, err := arithFastF32Scalar(a, out, float32(c.F), arithF32Sub, false); ok {
			return err
		}
	} else {
		c = scalar{I: alpha.I * s.I}
	}
	return arithBinary(a, scalarTensor(c), out, common, binaryOp{
		f: func(x, y float64) float64 { return x - y },
		i: func(x, y int64) (int64, error) { return x - y, nil },
	})
}

func subBoolErr() error {
	return fmt.Errorf("%w: subtraction with a bool tensor or scalar is not supported", executor.ErrInvalidArgument)
}

// subCheckAlpha refuses a bool alpha and a floating alpha for an integral result.
func subCheckAlpha(alpha scalar, common executor.ScalarType) error {
	if alpha.IsBool {
		return unbox.ArgError(2, "alpha", "a bool alpha is not supported")
	}
	if alpha.IsFloat && !isFloat(common) {
		return unbox.ArgError(2, "alpha", "a floating alpha needs a floating result, not %s", executor.DTypeName(common))
	}
	return nil
}
