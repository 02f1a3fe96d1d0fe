package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::fill.Scalar_out", DTypes: shapeAllTypes, Fn: fillScalarOut},
		executor.Kernel{Name: "aten::fill.Tensor_out", DTypes: shapeAllTypes, Fn: fillTensorOut},
	)
}

// aten::fill.Scalar_out(Tensor self, Scalar value, *, Tensor(a!) out): out shaped and typed like
// self, every element value (a value self's dtype cannot hold is refused).
func fillScalarOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxFillScalarOut(args)
	if err != nil {
		return err
	}
	self, s, out := u.Self, u.Value, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	v, err := shapeFillValue(s, out.ScalarType(), 1, "value")
	if err != nil {
		return err
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	shapeFill(out, v)
	return nil
}

// aten::fill.Tensor_out(Tensor self, Tensor value, *, Tensor(a!) out): as fill.Scalar_out with
// the one element of a 0-dim value, converted to self's dtype.
func fillTensorOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxFillTensorOut(args)
	if err != nil {
		return err
	}
	self, value, out := u.Self, u.Value, u.Out
	if value.Dim() != 0 {
		return unbox.ArgError(1, "value", "must be a 0-dim tensor, got %d dims", value.Dim())
	}
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	v, err := executor.NewTensor(out.ScalarType())
	if err != nil {
		return err
	}
	shapeConvertInto(v, value)
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	shapeFill(out, v)
	return nil
}
