package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::transpose_copy.int_out", DTypes: shapeAllTypes, Fn: transposeCopyOut})
}

// aten::transpose_copy.int_out(Tensor self, int dim0, int dim1, *, Tensor(a!) out): self with
// dimensions dim0 and dim1 swapped.
func transposeCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxTransposeCopyIntOut(args)
	if err != nil {
		return err
	}
	self, d0, d1, out := u.Self, u.Dim0, u.Dim1, u.Out
	a, err := unbox.NormDim(d0, self.Dim(), 1, "dim0")
	if err != nil {
		return err
	}
	b, err := unbox.NormDim(d1, self.Dim(), 2, "dim1")
	if err != nil {
		return err
	}
	return shapeTranspose(self, a, b, out)
}

// shapeTranspose copies self with dimensions a and b (valid, or 0 for a 0-d self) swapped.
func shapeTranspose(self *executor.Tensor, a, b int, out *executor.Tensor) error {
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	v := shapeViewOf(self)
	if self.Dim() > 0 {
		v.sizes[a], v.sizes[b] = v.sizes[b], v.sizes[a]
		v.strides[a], v.strides[b] = v.strides[b], v.strides[a]
	}
	if err := resize(out, v.sizes); err != nil {
		return err
	}
	shapeWrite(out, self, v)
	return nil
}
