package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::min.dim_min", DTypes: realBoolTypes, Fn: minDimMin},
		executor.Kernel{Name: "aten::min.unary_out", DTypes: realBoolTypes, Fn: minUnaryOut},
	)
}

// aten::min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) ...):
// the smallest element along dim (values, self's dtype) and the index of its first occurrence
// (int64). The first NaN counts as the smallest. The call's last argument is the TensorList return
// slot.
func minDimMin(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxMinDimMin(args)
	if err != nil {
		return err
	}
	return reduceValuesIndicesOut(u.Self, u.Dim, u.Keepdim, u.Min, u.MinIndices, reduceLessF, reduceLessI)
}

// aten::min.unary_out(Tensor self, *, Tensor(a!) out): the smallest element of the whole tensor as
// a 0-d out (which may be of another dtype the value casts to). NaN propagates.
func minUnaryOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxMinUnaryOut(args)
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
		v, _ := reduceExtreme(p, loadF64(self), reduceLessF)
		storeF64(out, v)
	} else {
		v, _ := reduceExtreme(p, loadI64(self), reduceLessI)
		storeI64(out, v)
	}
	return nil
}
