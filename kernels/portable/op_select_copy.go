package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::select_copy.int_out", DTypes: shapeAllTypes, Fn: selectCopyOut})
}

// aten::select_copy.int_out(Tensor self, int dim, SymInt index, *, Tensor(a!) out): the slice
// of self at index along dim, which is removed. index may be negative.
func selectCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxSelectCopyIntOut(args)
	if err != nil {
		return err
	}
	self, d, index, out := u.Self, u.Dim, u.Index, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	if self.Dim() == 0 {
		return unbox.ArgError(0, "self", "select() cannot be applied to a 0-d tensor")
	}
	dim, err := unbox.NormDim(d, self.Dim(), 1, "dim")
	if err != nil {
		return err
	}
	ix, err := shapeWrapIndex(index, self.Size(dim), 2, "index")
	if err != nil {
		return err
	}
	v := shapeViewOf(self)
	v.base = ix * v.strides[dim]
	v.sizes = slices.Delete(v.sizes, dim, dim+1)
	v.strides = slices.Delete(v.strides, dim, dim+1)
	if err := resize(out, v.sizes); err != nil {
		return err
	}
	shapeWrite(out, self, v)
	return nil
}
