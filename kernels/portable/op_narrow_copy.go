package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::narrow_copy.out", DTypes: shapeAllTypes, Fn: narrowCopyOut})
}

// aten::narrow_copy.out(Tensor self, int dim, SymInt start, SymInt length, *, Tensor(a!) out):
// length elements of self along dim from start (negative start counts from the end).
func narrowCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxNarrowCopyOut(args)
	if err != nil {
		return err
	}
	self, d, start, length, out := u.Self, u.Dim, u.Start, u.Length, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	if self.Dim() == 0 {
		return unbox.ArgError(0, "self", "narrow() cannot be applied to a 0-d tensor")
	}
	dim, err := unbox.NormDim(d, self.Dim(), 1, "dim")
	if err != nil {
		return err
	}
	n := int64(self.Size(dim))
	if start < -n || start > n {
		return unbox.ArgError(2, "start", "start %d is out of range for dimension %d of size %d", start, dim, n)
	}
	if start < 0 {
		start += n
	}
	if length < 0 || start+length > n {
		return unbox.ArgError(3, "length", "start %d + length %d exceeds dimension %d of size %d", start, length, dim, n)
	}
	v := shapeViewOf(self)
	v.base = int(start) * v.strides[dim]
	v.sizes[dim] = int(length)
	if err := resize(out, v.sizes); err != nil {
		return err
	}
	shapeWrite(out, self, v)
	return nil
}
