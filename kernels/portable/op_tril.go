package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::tril.out", DTypes: shapeAllTypes, Fn: trilOut})
}

// aten::tril.out(Tensor self, int diagonal=0, *, Tensor(a!) out): self with every element of the
// last two dimensions above the given diagonal (column − row > diagonal) set to zero.
func trilOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxTrilOut(args)
	if err != nil {
		return err
	}
	self, diagonal, out := u.Self, u.Diagonal, u.Out
	if self.Dim() < 2 {
		return unbox.ArgError(0, "self", "tril needs at least 2 dimensions, got %d", self.Dim())
	}
	if err := shapeCopySame(self, out); err != nil {
		return err
	}
	// Zero is all-zero bits in every dtype: clear the elements above the diagonal in place.
	k := out.Dim()
	rows, cols := out.Size(k-2), out.Size(k-1)
	es := executor.ElementSize(out.ScalarType())
	data, st := out.Bytes(), out.Strides()
	batch := out.Numel()
	if rows*cols == 0 {
		return nil
	}
	batch /= rows * cols
	// Beyond ±(rows+cols) every diagonal keeps all or nothing; clamping keeps the sums in range.
	diagonal = min(max(diagonal, -int64(rows+cols)), int64(rows+cols))
	lead := out.Sizes()[:k-2]
	idx := make([]int, len(lead))
	for b := 0; b < batch; b++ {
		base := 0
		for i, x := range idx {
			base += x * st[i]
		}
		for r := 0; r < rows; r++ {
			first := int64(r) + diagonal + 1 // first column above the diagonal
			for c := max(first, 0); c < int64(cols); c++ {
				o := (base + r*st[k-2] + int(c)*st[k-1]) * es
				clear(data[o : o+es])
			}
		}
		for i := len(idx) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < lead[i] {
				break
			}
			idx[i] = 0
		}
	}
	return nil
}
