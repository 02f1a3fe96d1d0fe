package portable

import (
	"fmt"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::split_with_sizes_copy.out", DTypes: shapeAllTypes, Fn: splitWithSizesCopyOut})
}

// aten::split_with_sizes_copy.out(Tensor self, SymInt[] split_sizes, int dim=0, *,
// Tensor(a!)[] out) -> (): self cut along dim into pieces of the given sizes, which must sum to
// self.size(dim); out is a TensorList with one tensor per piece.
func splitWithSizesCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxSplitWithSizesCopyOut(args)
	if err != nil {
		return err
	}
	self, splits, d, outs := u.Self, u.SplitSizes, u.Dim, u.Out
	if self.Dim() == 0 {
		return unbox.ArgError(0, "self", "cannot split a 0-d tensor")
	}
	dim, err := unbox.NormDim(d, self.Dim(), 2, "dim")
	if err != nil {
		return err
	}
	if len(splits) != len(outs) {
		return unbox.ArgError(3, "out", "%d tensors for %d split sizes", len(outs), len(splits))
	}
	sizes := make([]int, len(splits))
	sum := int64(0)
	for k, s := range splits {
		if s < 0 {
			return unbox.ArgError(1, "split_sizes", "split size %d at %d is negative", s, k)
		}
	}
	for k, s := range splits {
		sum += s
		if sum > int64(self.Size(dim)) {
			break
		}
		sizes[k] = int(s)
	}
	if sum != int64(self.Size(dim)) {
		return unbox.ArgError(1, "split_sizes", "split sizes %v do not sum to the size %d of dimension %d", splits, self.Size(dim), dim)
	}
	return shapeSplit(self, dim, sizes, outs)
}

// shapeSplit copies consecutive pieces of self along dim, of the given sizes, into outs.
func shapeSplit(self *executor.Tensor, dim int, sizes []int, outs []*executor.Tensor) error {
	off := 0
	for k, n := range sizes {
		o := outs[k]
		if o.ScalarType() != self.ScalarType() {
			return fmt.Errorf("%w: out %d is %s, self is %s; split keeps the dtype", executor.ErrInvalidArgument,
				k, executor.DTypeName(o.ScalarType()), executor.DTypeName(self.ScalarType()))
		}
		v := shapeViewOf(self)
		v.base = off * v.strides[dim]
		v.sizes[dim] = n
		if err := o.Resize(v.sizes); err != nil {
			return fmt.Errorf("out %d: %w", k, err)
		}
		shapeWrite(o, self, v)
		off += n
	}
	return nil
}
