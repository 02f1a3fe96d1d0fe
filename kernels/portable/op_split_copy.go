package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::split_copy.Tensor_out", DTypes: shapeAllTypes, Fn: splitCopyOut})
}

// aten::split_copy.Tensor_out(Tensor self, SymInt split_size, int dim=0, *, Tensor(a!)[] out)
// -> (): self cut along dim into pieces of split_size (the last one possibly smaller); out is
// a TensorList of ceil(size / split_size) tensors (one when split_size >= size).
func splitCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxSplitCopyTensorOut(args)
	if err != nil {
		return err
	}
	self, split, d, outs := u.Self, u.SplitSize, u.Dim, u.Out
	if self.Dim() == 0 {
		return unbox.ArgError(0, "self", "cannot split a 0-d tensor")
	}
	dim, err := unbox.NormDim(d, self.Dim(), 2, "dim")
	if err != nil {
		return err
	}
	n := int64(self.Size(dim))
	switch {
	case split < 0:
		return unbox.ArgError(1, "split_size", "split size %d is negative", split)
	case split == 0 && n > 0:
		return unbox.ArgError(1, "split_size", "split size 0 cannot split a dimension of size %d", n)
	}
	var sizes []int
	if split >= n {
		sizes = []int{int(n)}
	} else {
		for off := int64(0); off < n; off += split {
			sizes = append(sizes, int(min(split, n-off)))
		}
	}
	if len(outs) != len(sizes) {
		return unbox.ArgError(3, "out", "%d tensors; splitting size %d by %d makes %d", len(outs), n, split, len(sizes))
	}
	return shapeSplit(self, dim, sizes, outs)
}
