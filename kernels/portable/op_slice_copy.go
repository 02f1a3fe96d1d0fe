package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::slice_copy.Tensor_out", DTypes: shapeAllTypes, Fn: sliceCopyOut})
}

// aten::slice_copy.Tensor_out(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None,
// SymInt step=1, *, Tensor(a!) out): self[..., start:end:step, ...] along dim. start and end
// may be negative (from the end) and are clamped to the dimension; step must be positive.
func sliceCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxSliceCopyTensorOut(args)
	if err != nil {
		return err
	}
	self, d, start, hasStart, end, hasEnd, step, out := u.Self, u.Dim, u.Start.Val, u.Start.OK, u.End.Val, u.End.OK, u.Step, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	if self.Dim() == 0 {
		return unbox.ArgError(0, "self", "cannot slice a 0-d tensor")
	}
	dim, err := unbox.NormDim(d, self.Dim(), 1, "dim")
	if err != nil {
		return err
	}
	if step <= 0 {
		return unbox.ArgError(4, "step", "slice step must be positive, got %d", step)
	}
	n := int64(self.Size(dim))
	if !hasStart {
		start = 0
	}
	if !hasEnd {
		end = n
	}
	first, length := shapeSliceRange(n, start, end, step)
	v := shapeViewOf(self)
	v.base = int(first) * v.strides[dim]
	v.sizes[dim] = int(length)
	v.strides[dim] *= int(step)
	if err := resize(out, v.sizes); err != nil {
		return err
	}
	shapeWrite(out, self, v)
	return nil
}

// shapeSliceRange resolves Python slice bounds over a dimension of n: the first index and the
// number of elements.
func shapeSliceRange(n, start, end, step int64) (int64, int64) {
	if start < 0 {
		start += n
	}
	if end < 0 {
		end += n
	}
	start = min(max(start, 0), n)
	end = min(max(end, 0), n)
	if start >= end {
		return start, 0
	}
	return start, (end-1-start)/step + 1
}
