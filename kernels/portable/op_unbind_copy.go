package portable

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::unbind_copy.int_out", DTypes: shapeAllTypes, Fn: unbindCopyOut})
}

// aten::unbind_copy.int_out(Tensor self, int dim=0, *, Tensor(a!)[] out) -> (): the slices of
// self along dim, which is removed; out is a TensorList of self.size(dim) tensors.
func unbindCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxUnbindCopyIntOut(args)
	if err != nil {
		return err
	}
	self, d, outs := u.Self, u.Dim, u.Out
	if self.Dim() == 0 {
		return unbox.ArgError(0, "self", "cannot unbind a 0-d tensor")
	}
	dim, err := unbox.NormDim(d, self.Dim(), 1, "dim")
	if err != nil {
		return err
	}
	if len(outs) != self.Size(dim) {
		return unbox.ArgError(2, "out", "%d tensors for dimension %d of size %d", len(outs), dim, self.Size(dim))
	}
	for k, o := range outs {
		if o.ScalarType() != self.ScalarType() {
			return fmt.Errorf("%w: out %d is %s, self is %s; unbind keeps the dtype", executor.ErrInvalidArgument,
				k, executor.DTypeName(o.ScalarType()), executor.DTypeName(self.ScalarType()))
		}
		v := shapeViewOf(self)
		v.base = k * v.strides[dim]
		v.sizes = slices.Delete(v.sizes, dim, dim+1)
		v.strides = slices.Delete(v.strides, dim, dim+1)
		if err := o.Resize(v.sizes); err != nil {
			return fmt.Errorf("out %d: %w", k, err)
		}
		shapeWrite(o, self, v)
	}
	return nil
}
