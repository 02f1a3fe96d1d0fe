package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::diagonal_copy.out", DTypes: shapeAllTypes, Fn: diagonalCopyOut})
}

// aten::diagonal_copy.out(Tensor self, int offset=0, int dim1=0, int dim2=1, *, Tensor(a!) out):
// the diagonal of the dim1×dim2 planes (above the main one for offset > 0, below for < 0), as a
// new last dimension; dim1 and dim2 are removed.
func diagonalCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxDiagonalCopyOut(args)
	if err != nil {
		return err
	}
	self, offset, d1, d2, out := u.Self, u.Offset, u.Dim1, u.Dim2, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	if self.Dim() < 2 {
		return unbox.ArgError(0, "self", "diagonal needs at least 2 dimensions, got %d", self.Dim())
	}
	a, err := unbox.NormDim(d1, self.Dim(), 2, "dim1")
	if err != nil {
		return err
	}
	b, err := unbox.NormDim(d2, self.Dim(), 3, "dim2")
	if err != nil {
		return err
	}
	if a == b {
		return unbox.ArgError(3, "dim2", "diagonal dimensions cannot be identical (%d, %d)", d1, d2)
	}
	v := shapeViewOf(self)
	var n int64
	if offset >= 0 {
		n = max(min(int64(v.sizes[a]), int64(v.sizes[b])-offset), 0)
		if n > 0 {
			v.base = int(offset) * v.strides[b]
		}
	} else {
		n = max(min(int64(v.sizes[a])+offset, int64(v.sizes[b])), 0)
		if n > 0 {
			v.base = int(-offset) * v.strides[a]
		}
	}
	step := v.strides[a] + v.strides[b]
	hi, lo := max(a, b), min(a, b)
	v.sizes = append(slices.Delete(slices.Delete(v.sizes, hi, hi+1), lo, lo+1), int(n))
	v.strides = append(slices.Delete(slices.Delete(v.strides, hi, hi+1), lo, lo+1), step)
	if err := resize(out, v.sizes); err != nil {
		return err
	}
	shapeWrite(out, self, v)
	return nil
}
