package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::roll.out", DTypes: shapeAllTypes, Fn: rollOut})
}

// aten::roll.out(Tensor self, SymInt[1] shifts, int[1] dims=[], *, Tensor(a!) out): self with
// elements moved shifts[i] places along dims[i], wrapping around; with no dims, along the
// flattened tensor. Each dim is two strided copies: the tail moves to the front and the rest after it.
func rollOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxRollOut(args)
	if err != nil {
		return err
	}
	self, shifts, dims, out := u.Self, u.Shifts, u.Dims, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	if len(shifts) == 0 {
		return unbox.ArgError(1, "shifts", "must not be empty")
	}
	if len(dims) == 0 && len(shifts) != 1 {
		return unbox.ArgError(1, "shifts", "%d shifts need as many dims", len(shifts))
	}
	if len(dims) > 0 && len(dims) != len(shifts) {
		return unbox.ArgError(2, "dims", "%d dims for %d shifts", len(dims), len(shifts))
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	if self.Numel() == 0 {
		return nil
	}
	// Work on logical (row-major) copies; the result goes through out's strides at the end.
	src := shapeContiguous(self)
	sizes := slices.Clone(self.Sizes())
	axes := make([]int, len(dims))
	for i, d := range dims {
		a, err := unbox.NormDim(d, self.Dim(), 2, "dims")
		if err != nil {
			return err
		}
		axes[i] = a
	}
	if len(dims) == 0 { // roll the flattened tensor
		sizes, axes = []int{self.Numel()}, []int{0}
	}
	cur, err := executor.FromBytes(src.ScalarType(), sizes, src.Bytes())
	if err != nil {
		return err
	}
	for i, a := range axes {
		n := sizes[a]
		s := int((shifts[i]%int64(n) + int64(n)) % int64(n))
		if s == 0 {
			continue
		}
		next, err := executor.NewTensor(cur.ScalarType(), sizes...)
		if err != nil {
			return err
		}
		st := next.Strides()
		// cur[..., n-s:, ...] → next[..., :s, ...]; cur[..., :n-s, ...] → next[..., s:, ...].
		tail := shapeViewOf(cur)
		tail.base = (n - s) * tail.strides[a]
		tail.sizes[a] = s
		shapeCopyView(next, 0, st, cur, tail)
		head := shapeViewOf(cur)
		head.sizes[a] = n - s
		shapeCopyView(next, s*st[a], st, cur, head)
		cur = next
	}
	flat, err := executor.FromBytes(cur.ScalarType(), self.Sizes(), cur.Bytes())
	if err != nil {
		return err
	}
	shapeWrite(out, flat, shapeViewOf(flat))
	return nil
}
