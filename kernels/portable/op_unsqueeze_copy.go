package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::unsqueeze_copy.out", DTypes: shapeAllTypes, Fn: unsqueezeCopyOut})
}

// aten::unsqueeze_copy.out(Tensor self, int dim, *, Tensor(a!) out): self with a new dimension
// of size 1 at dim, which may be negative (counting from the end of the result).
func unsqueezeCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxUnsqueezeCopyOut(args)
	if err != nil {
		return err
	}
	self, d, out := u.Self, u.Dim, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	dim, err := unbox.NormDim(d, self.Dim()+1, 1, "dim")
	if err != nil {
		return err
	}
	if err := resize(out, slices.Insert(slices.Clone(self.Sizes()), dim, 1)); err != nil {
		return err
	}
	shapeReshape(out, self)
	return nil
}
