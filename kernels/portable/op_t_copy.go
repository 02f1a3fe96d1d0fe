package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::t_copy.out", DTypes: shapeAllTypes, Fn: tCopyOut})
}

// aten::t_copy.out(Tensor self, *, Tensor(a!) out): the transpose of a matrix; 0-d and 1-d
// tensors are copied unchanged.
func tCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxTCopyOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	if self.Dim() > 2 {
		return unbox.ArgError(0, "self", "t() expects a tensor with at most 2 dimensions, got %d", self.Dim())
	}
	if self.Dim() < 2 {
		return shapeTranspose(self, 0, 0, out)
	}
	return shapeTranspose(self, 0, 1, out)
}
