package portable

import (
	"fmt"

	"github.com/etgo/etgo/executor"
)

// binaryOp is an elementwise operation on two values of the computation type: f for floating
// results, i for integral and boolean results (nil when the op has no integral form).
type binaryOp struct {
	f func(x, y float64) float64
	i func(x, y int64) (int64, error)
}

// binary computes out = op(a, b) with broadcasting, in PyTorch's result type of a and b, which
// must be castable to out's type (a float result into an integral out is refused, as in PyTorch).
func binary(a, b, out *executor.Tensor, op binaryOp) error {
	return binaryAs(a, b, out, new(typeState).tensor(a).tensor(b).result(), op)
}

// binaryScalar computes out = op(a, s) for a Scalar operand.
func binaryScalar(a *executor.Tensor, s scalar, out *executor.Tensor, op binaryOp) error {
	return binaryAs(a, scalarTensor(s), out, new(typeState).tensor(a).scalar(s).result(), op)
}

// binaryAs computes out = op(a, b) in the given computation type: operands cast to it first,
// floating results rounded to it before the cast to out, integral results wrapped in it (see
// arithBinary, which the arithmetic family made exact to PyTorch and every binary op shares).
func binaryAs(a, b, out *executor.Tensor, common executor.ScalarType, op binaryOp) error {
	return arithBinary(a, b, out, common, op)
}

// scalarTensor holds a Scalar's value as a 0-d tensor (float64 or int64: loads convert it to
// the computation type; its type takes no part in promotion).
func scalarTensor(s scalar) *executor.Tensor {
	if s.IsFloat {
		st, _ := executor.FromSlice([]float64{s.F})
		return st
	}
	st, _ := executor.FromSlice([]int64{s.I})
	return st
}

// unaryFloat computes out = f(self) elementwise; integral and bool inputs compute in floating
// point and need a floating out (as erf, exp, sigmoid do in PyTorch).
func unaryFloat(self, out *executor.Tensor, f func(float64) float64) error {
	if !isFloat(out.ScalarType()) {
		return fmt.Errorf("%w: out is %s; this operation produces floating point", executor.ErrInvalidArgument, executor.DTypeName(out.ScalarType()))
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	x := loadF64(self)
	for i, v := range x {
		x[i] = f(v)
	}
	storeF64(out, x)
	return nil
}

// unaryReal computes out = op(self) keeping the input's type (relu, abs, neg, clamp, ...).
func unaryReal(self, out *executor.Tensor, f func(float64) float64, i func(int64) int64) error {
	if category(self.ScalarType()) > category(out.ScalarType()) {
		return fmt.Errorf("%w: %s input cannot be written to a %s out", executor.ErrInvalidArgument,
			executor.DTypeName(self.ScalarType()), executor.DTypeName(out.ScalarType()))
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	if isFloat(self.ScalarType()) || i == nil {
		x := loadF64(self)
		for k, v := range x {
			x[k] = f(v)
		}
		storeF64(out, x)
		return nil
	}
	x := loadI64(self)
	for k, v := range x {
		x[k] = i(v)
	}
	storeI64(out, x)
	return nil
}
