package portable

import (
	"fmt"

	"github.com/etgo/etgo/runtime"
)

// binaryOp is an elementwise operation on two values of the computation type: f for floating
// results, i for integral and boolean results (nil when the op has no integral form).
type binaryOp struct {
	f func(x, y float64) float64
	i func(x, y int64) (int64, error)
}

// binary computes out = op(a, b) with broadcasting, in PyTorch's result type of a and b, which
// must be castable to out's type (a float result into an integral out is refused, as in PyTorch).
func binary(a, b, out *runtime.Tensor, op binaryOp) error {
	return binaryAs(a, b, out, new(typeState).tensor(a).tensor(b).result(), op)
}

// binaryScalar computes out = op(a, s) for a Scalar operand.
func binaryScalar(a *runtime.Tensor, s scalar, out *runtime.Tensor, op binaryOp) error {
	return binaryAs(a, scalarTensor(s), out, new(typeState).tensor(a).scalar(s).result(), op)
}

// binaryAs computes out = op(a, b) in the given computation type.
func binaryAs(a, b, out *runtime.Tensor, common runtime.ScalarType, op binaryOp) error {
	if category(common) > category(out.ScalarType()) {
		return fmt.Errorf("%w: result type %s cannot be cast to out's %s", runtime.ErrInvalidArgument,
			runtime.DTypeName(common), runtime.DTypeName(out.ScalarType()))
	}
	shape, err := broadcastShape(a.Sizes(), b.Sizes())
	if err != nil {
		return err
	}
	if err := resize(out, shape); err != nil {
		return err
	}
	ma, mb := broadcastIndex(a.Sizes(), shape), broadcastIndex(b.Sizes(), shape)
	n := out.Numel()
	if isFloat(common) || op.i == nil {
		x, y := loadCastF64(a, common), loadCastF64(b, common)
		r := make([]float64, n)
		for e := range r {
			r[e] = op.f(at(x, ma, e), at(y, mb, e))
		}
		storeF64(out, r)
		return nil
	}
	x, y := loadCastI64(a, common), loadCastI64(b, common)
	r := make([]int64, n)
	for e := range r {
		v, err := op.i(at(x, ma, e), at(y, mb, e))
		if err != nil {
			return err
		}
		r[e] = v
	}
	// Wrap to the common type first (int8 + int8 wraps in int8), then cast to out.
	wrapTo(common, r)
	storeI64(out, r)
	return nil
}

// scalarTensor holds a Scalar's value as a 0-d tensor (float64 or int64: loads convert it to
// the computation type; its type takes no part in promotion).
func scalarTensor(s scalar) *runtime.Tensor {
	if s.isFloat {
		st, _ := runtime.FromSlice([]float64{s.f})
		return st
	}
	st, _ := runtime.FromSlice([]int64{s.i})
	return st
}

// unaryFloat computes out = f(self) elementwise; integral and bool inputs compute in floating
// point and need a floating out (as erf, exp, sigmoid do in PyTorch).
func unaryFloat(self, out *runtime.Tensor, f func(float64) float64) error {
	if !isFloat(out.ScalarType()) {
		return fmt.Errorf("%w: out is %s; this operation produces floating point", runtime.ErrInvalidArgument, runtime.DTypeName(out.ScalarType()))
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
func unaryReal(self, out *runtime.Tensor, f func(float64) float64, i func(int64) int64) error {
	if category(self.ScalarType()) > category(out.ScalarType()) {
		return fmt.Errorf("%w: %s input cannot be written to a %s out", runtime.ErrInvalidArgument,
			runtime.DTypeName(self.ScalarType()), runtime.DTypeName(out.ScalarType()))
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
