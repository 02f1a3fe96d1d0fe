package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "dim_order_ops::_to_dim_order_copy.out", DTypes: realBoolTypes, Fn: toDimOrderCopyOut})
}

// dim_order_ops::_to_dim_order_copy.out(Tensor self, *, bool non_blocking=False, int[]?
// dim_order=None, Tensor(a!) out): self converted to out's dtype and written in out's dim order
// (e.g. contiguous <-> channels last). A dim_order must equal out's; None keeps self's, which
// out must then have.
func toDimOrderCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxToDimOrderCopyOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	if u.NonBlocking {
		// ExecuTorch copies synchronously only (copy_ops_util: non_blocking == false).
		return unbox.ArgError(1, "non_blocking", "must be false (copies are blocking)")
	}
	if err := shapeCheckDimOrder(u.DimOrder, 2, self, out); err != nil {
		return err
	}
	if err := shapeConvertible(self, out); err != nil {
		return err
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	shapeConvertInto(out, self)
	return nil
}

// shapeCheckDimOrder checks an int[]? dim_order argument against out's dim order (self's when
// None), as ExecuTorch's _to_dim_order_copy does.
func shapeCheckDimOrder(dimOrder optional[[]int64], i int, self, out *executor.Tensor) error {
	l := dimOrder.Val
	have := out.DimOrder()
	if !dimOrder.OK {
		if !slices.Equal(have, self.DimOrder()) {
			return unbox.ArgError(i, "dim_order", "None keeps self's dim order %v, but out has %v", self.DimOrder(), have)
		}
		return nil
	}
	if len(l) != self.Dim() {
		return unbox.ArgError(i, "dim_order", "%v has %d entries for a rank-%d tensor", l, len(l), self.Dim())
	}
	for k, d := range l {
		if k >= len(have) || int64(have[k]) != d {
			return unbox.ArgError(i, "dim_order", "%v differs from out's dim order %v", l, have)
		}
	}
	return nil
}
