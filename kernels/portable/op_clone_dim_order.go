package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "dim_order_ops::_clone_dim_order.out", DTypes: shapeAllTypes, Fn: cloneDimOrderOut})
}

// dim_order_ops::_clone_dim_order.out(Tensor self, *, bool non_blocking=False, int[]?
// dim_order=None, Tensor(a!) out): a copy of self (same dtype) written in out's dim order. A
// dim_order must equal out's; None keeps self's, which out must then have.
func cloneDimOrderOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxCloneDimOrderOut(args)
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
	return shapeCopySame(self, out)
}
