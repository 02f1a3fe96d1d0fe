package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::view_copy.out", DTypes: shapeAllTypes, Fn: viewCopyOut})
}

// aten::view_copy.out(Tensor self, SymInt[] size, *, Tensor(a!) out): self's elements, in
// logical order, with new sizes; one size may be -1 (inferred).
func viewCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxViewCopyOut(args)
	if err != nil {
		return err
	}
	return shapeViewCopy(a)
}

// shapeViewCopy is view_copy.out and _unsafe_view.out, whose arguments match.
func shapeViewCopy(a selfSizeOutArgs) error {
	self, size, out := a.Self, a.Size, a.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	sizes, err := shapeInferSize(size, self.Numel(), 1, "size")
	if err != nil {
		return err
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	shapeReshape(out, self)
	return nil
}

// shapeInferSize resolves a view's sizes for numel elements: at most one -1, inferred.
func shapeInferSize(size []int64, numel int, i int, name string) ([]int, error) {
	if len(size) > executor.MaxRank {
		return nil, unbox.ArgError(i, name, "%d dimensions exceed the limit of %d", len(size), executor.MaxRank)
	}
	out := make([]int, len(size))
	infer := -1
	known := 1
	for k, s := range size {
		switch {
		case s == -1:
			if infer >= 0 {
				return nil, unbox.ArgError(i, name, "only one dimension can be inferred (-1), %v has several", size)
			}
			infer = k
		case s < 0:
			return nil, unbox.ArgError(i, name, "invalid size %d at dimension %d", s, k)
		default:
			if s > 1<<40 {
				return nil, unbox.ArgError(i, name, "size %d at dimension %d is too large", s, k)
			}
			out[k] = int(s)
			known *= int(s)
			if known > math.MaxInt>>1 {
				return nil, unbox.ArgError(i, name, "shape %v is too large", size)
			}
		}
	}
	if infer >= 0 {
		if known == 0 {
			return nil, unbox.ArgError(i, name, "cannot infer the -1 in shape %v for %d elements", size, numel)
		}
		if numel%known != 0 {
			return nil, unbox.ArgError(i, name, "shape %v is invalid for %d elements", size, numel)
		}
		out[infer] = numel / known
		known = numel
	}
	if known != numel {
		return nil, unbox.ArgError(i, name, "shape %v is invalid for %d elements", size, numel)
	}
	return out, nil
}
