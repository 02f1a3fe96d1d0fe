package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::stack.out", DTypes: shapeAllTypes, Fn: stackOut})
}

// aten::stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out): the tensors, all of one
// shape, joined along a new dimension dim (in [-(rank+1), rank]). Inputs are converted to out's
// dtype, which must be able to hold them.
func stackOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxStackOut(args)
	if err != nil {
		return err
	}
	ts, d, out := u.Tensors, u.Dim, u.Out
	if len(ts) == 0 {
		return unbox.ArgError(0, "tensors", "stack needs at least one tensor")
	}
	ref := ts[0]
	for k, t := range ts {
		if !shapeCanCast(t.ScalarType(), out.ScalarType()) {
			return unbox.ArgError(0, "tensors", "item %d is %s, which cannot be cast to out's %s", k,
				executor.DTypeName(t.ScalarType()), executor.DTypeName(out.ScalarType()))
		}
		if !slices.Equal(t.Sizes(), ref.Sizes()) {
			return unbox.ArgError(0, "tensors", "stack expects each tensor to be equal size, but item 0 is %v and item %d is %v", ref.Sizes(), k, t.Sizes())
		}
	}
	dim, err := unbox.NormDim(d, ref.Dim()+1, 1, "dim")
	if err != nil {
		return err
	}
	sizes := slices.Insert(slices.Clone(ref.Sizes()), dim, len(ts))
	if err := resize(out, sizes); err != nil {
		return err
	}
	// Each input fills out[..., k, ...]: out's strides without dim, based at k.
	ostr := out.Strides()
	dstStrides := slices.Delete(slices.Clone(ostr), dim, dim+1)
	for k, t := range ts {
		c := shapeConvert(t, out.ScalarType())
		shapeCopyView(out, k*ostr[dim], dstStrides, c, shapeViewOf(c))
	}
	return nil
}
