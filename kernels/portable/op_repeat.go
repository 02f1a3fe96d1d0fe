package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::repeat.out", DTypes: shapeAllTypes, Fn: repeatOut})
}

// aten::repeat.out(Tensor self, SymInt[] repeats, *, Tensor(a!) out): self tiled repeats[i]
// times along each dimension; repeats may be longer than self's rank (new leading dimensions).
func repeatOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxRepeatOut(args)
	if err != nil {
		return err
	}
	self, reps, out := u.Self, u.Repeats, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	if len(reps) < self.Dim() {
		return unbox.ArgError(1, "repeats", "%d repeats for a rank-%d tensor; repeat needs at least as many", len(reps), self.Dim())
	}
	r, err := shapeSizes(reps, 1, "repeats")
	if err != nil {
		return err
	}
	lead := len(r) - self.Dim()
	sizes := make([]int, len(r))
	for k, n := range r {
		sizes[k] = n
		if k >= lead {
			sizes[k] *= self.Size(k - lead)
		}
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	// Iterate (repeat, element) pairs per dimension: the repeat moves the destination a whole
	// tile and the source not at all.
	ostr := out.Strides()
	var it shapeView
	var dst []int
	for k, n := range r {
		it.sizes = append(it.sizes, n)
		it.strides = append(it.strides, 0)
		if k < lead {
			dst = append(dst, ostr[k])
			continue
		}
		s := self.Size(k - lead)
		dst = append(dst, s*ostr[k])
		it.sizes = append(it.sizes, s)
		it.strides = append(it.strides, self.Strides()[k-lead])
		dst = append(dst, ostr[k])
	}
	shapeCopyView(out, 0, dst, self, it)
	return nil
}
