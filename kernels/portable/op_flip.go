package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::flip.out", DTypes: shapeAllTypes, Fn: flipOut})
}

// aten::flip.out(Tensor self, int[] dims, *, Tensor(a!) out): self reversed along each of dims
// (each listed at most once; negative counts from the end).
func flipOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxFlipOut(args)
	if err != nil {
		return err
	}
	self, dims, out := u.Self, u.Dims, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	v := shapeViewOf(self)
	seen := make([]bool, max(self.Dim(), 1))
	for _, d := range dims {
		n, err := unbox.NormDim(d, self.Dim(), 1, "dims")
		if err != nil {
			return err
		}
		if seen[n] {
			return unbox.ArgError(1, "dims", "dimension %d appears more than once", d)
		}
		seen[n] = true
		if self.Dim() > 0 && v.sizes[n] > 0 {
			v.base += (v.sizes[n] - 1) * v.strides[n]
			v.strides[n] = -v.strides[n]
		}
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	shapeWrite(out, self, v)
	return nil
}
