package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::unfold_copy.out", DTypes: shapeAllTypes, Fn: unfoldCopyOut})
}

// aten::unfold_copy.out(Tensor self, int dimension, int size, int step, *, Tensor(a!) out): every
// window of size elements along dimension, step apart: that dimension counts the windows and a new
// last dimension of length size holds each.
func unfoldCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxUnfoldCopyOut(args)
	if err != nil {
		return err
	}
	self, d, size, step, out := u.Self, u.Dimension, u.Size, u.Step, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	dim, err := unbox.NormDim(d, self.Dim(), 1, "dimension")
	if err != nil {
		return err
	}
	v := shapeViewOf(self)
	n, stride := int64(1), 1
	if self.Dim() > 0 {
		n, stride = int64(v.sizes[dim]), v.strides[dim]
	}
	if size < 0 || size > n {
		return unbox.ArgError(2, "size", "size %d exceeds dimension %d of size %d", size, dim, n)
	}
	if step <= 0 {
		return unbox.ArgError(3, "step", "step must be positive, got %d", step)
	}
	windows := int((n-size)/step + 1)
	if self.Dim() == 0 {
		v.sizes, v.strides = []int{int(size)}, []int{1}
	} else {
		v.sizes[dim], v.strides[dim] = windows, stride*int(step)
		v.sizes = append(v.sizes, int(size))
		v.strides = append(v.strides, stride)
	}
	if err := resize(out, v.sizes); err != nil {
		return err
	}
	shapeWrite(out, self, v)
	return nil
}
