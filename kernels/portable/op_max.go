package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::max.dim_max", DTypes: realBoolTypes, Fn: maxDimMax},
		executor.Kernel{Name: "aten::max.unary_out", DTypes: realBoolTypes, Fn: maxUnaryOut},
	)
}

// aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) ...):
// the largest element along dim (values, self's dtype) and the index of its first occurrence
// (int64). The first NaN counts as the largest. The call's last argument is the TensorList return
// slot.
func maxDimMax(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxMaxDimMax(args)
	if err != nil {
		return err
	}
	return reduceValuesIndicesOut(u.Self, u.Dim, u.Keepdim, u.Max, u.MaxValues, reduceGreaterF, reduceGreaterI)
}

// aten::max.unary_out(Tensor self, *, Tensor(a!) out): the largest element of the whole tensor as
// a 0-d out (which may be of another dtype the value casts to). NaN propagates.
func maxUnaryOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxMaxUnaryOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	if category(self.ScalarType()) > category(out.ScalarType()) {
		return unbox.ArgError(1, "out", "%s input cannot be written to a %s out", executor.DTypeName(self.ScalarType()), executor.DTypeName(out.ScalarType()))
	}
	p := newReducePlan(self.Sizes(), reduceAllDims(self.Dim()), false)
	if err := p.requireNonEmpty(0, "self"); err != nil {
		return err
	}
	if err := resize(out, p.outSizes); err != nil {
		return err
	}
	if isFloat(self.ScalarType()) {
		v, _ := reduceExtreme(p, loadF64(self), reduceGreaterF)
		storeF64(out, v)
	} else {
		v, _ := reduceExtreme(p, loadI64(self), reduceGreaterI)
		storeI64(out, v)
	}
	return nil
}
