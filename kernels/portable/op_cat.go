package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::cat.out", DTypes: shapeAllTypes, Fn: catOut})
}

// aten::cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out): the tensors joined along dim.
// As in PyTorch, 1-d empty tensors (shape [0]) are skipped whatever their rank; the others must
// agree on every size but dim's. Inputs of other dtypes are converted to out's, which must be
// able to hold them (no floating into integral, no integral into bool).
func catOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxCatOut(args)
	if err != nil {
		return err
	}
	ts, d, out := u.Tensors, u.Dim, u.Out
	if len(ts) == 0 {
		return unbox.ArgError(0, "tensors", "cat needs at least one tensor")
	}
	var ref *executor.Tensor
	for k, t := range ts {
		if !shapeCanCast(t.ScalarType(), out.ScalarType()) {
			return unbox.ArgError(0, "tensors", "item %d is %s, which cannot be cast to out's %s", k,
				executor.DTypeName(t.ScalarType()), executor.DTypeName(out.ScalarType()))
		}
		if ref == nil && !shapeCatSkipped(t) {
			ref = t
		}
	}
	if ref == nil { // only [0]-shaped tensors
		return resize(out, []int{0})
	}
	if ref.Dim() == 0 {
		return unbox.ArgError(0, "tensors", "zero-dimensional tensors cannot be concatenated")
	}
	dim, err := unbox.NormDim(d, ref.Dim(), 1, "dim")
	if err != nil {
		return err
	}
	sizes := slices.Clone(ref.Sizes())
	sizes[dim] = 0
	for k, t := range ts {
		if shapeCatSkipped(t) {
			continue
		}
		if t.Dim() != ref.Dim() {
			return unbox.ArgError(0, "tensors", "item %d has %d dimensions, the first has %d", k, t.Dim(), ref.Dim())
		}
		for i, s := range t.Sizes() {
			if i != dim && s != ref.Size(i) {
				return unbox.ArgError(0, "tensors", "sizes must match except in dimension %d: item %d is %v, expected %v", dim, k, t.Sizes(), ref.Sizes())
			}
		}
		sizes[dim] += t.Size(dim)
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	off := 0
	for _, t := range ts {
		if shapeCatSkipped(t) {
			continue
		}
		c := shapeConvert(t, out.ScalarType())
		shapeCopyView(out, off*out.Strides()[dim], out.Strides(), c, shapeViewOf(c))
		off += t.Size(dim)
	}
	return nil
}

// shapeCatSkipped reports a legacy empty tensor, which cat ignores.
func shapeCatSkipped(t *executor.Tensor) bool { return t.Dim() == 1 && t.Size(0) == 0 }
