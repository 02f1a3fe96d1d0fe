package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::index_select.out", DTypes: shapeAllTypes, Fn: indexSelectOut})
}

// aten::index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out): the slices of
// self along dim at the positions in index (0-d or 1-d, int64 or int32, each in [0, size)).
// out has self's sizes with dim's replaced by the number of indices.
func indexSelectOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxIndexSelectOut(args)
	if err != nil {
		return err
	}
	self, d, index, out := u.Self, u.Dim, u.Index, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	dim, err := unbox.NormDim(d, self.Dim(), 1, "dim")
	if err != nil {
		return err
	}
	if index.Dim() > 1 {
		return unbox.ArgError(2, "index", "must be 0-d or 1-d, got %d dimensions", index.Dim())
	}
	vals, err := shapeIndexValues(index, 2, "index")
	if err != nil {
		return err
	}
	// A 0-d self behaves as a 1-d tensor of one element.
	n := 1
	if self.Dim() > 0 {
		n = self.Size(dim)
	}
	rows := make([]int, len(vals))
	for k, v := range vals {
		if v < 0 || v >= int64(n) {
			return unbox.ArgError(2, "index", "index %d is out of range for dimension %d of size %d", v, dim, n)
		}
		rows[k] = int(v)
	}
	if self.Dim() == 0 {
		if len(vals) != 1 {
			return unbox.ArgError(2, "index", "indexing a 0-d tensor needs exactly one index, got %d", len(vals))
		}
		if err := resize(out, []int{}); err != nil {
			return err
		}
		shapeWrite(out, self, shapeViewOf(self))
		return nil
	}
	sizes := slices.Clone(self.Sizes())
	sizes[dim] = len(rows)
	if err := resize(out, sizes); err != nil {
		return err
	}
	shapeSelectRows(out, self, dim, rows)
	return nil
}
