package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::nonzero.out", DTypes: realBoolTypes, Fn: nonzeroOut})
}

// aten::nonzero.out(Tensor self, *, Tensor(a!) out): the indices of self's non-zero elements in
// row-major order, one row per element: an int64 out of [count, rank], sized at run time.
func nonzeroOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxNonzeroOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	if out.ScalarType() != executor.Int64 {
		return unbox.ArgError(1, "out", "must be int64, got %s", executor.DTypeName(out.ScalarType()))
	}
	if out.Dim() != 2 {
		return unbox.ArgError(1, "out", "must have 2 dimensions, got %d", out.Dim())
	}
	x := loadF64(self)
	rank := self.Dim()
	var rows []int64
	idx := make([]int64, rank)
	sizes := self.Sizes()
	for _, v := range x {
		if v != 0 { // NaN is non-zero
			rows = append(rows, idx...)
		}
		for d := rank - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < int64(sizes[d]) {
				break
			}
			idx[d] = 0
		}
	}
	if err := resize(out, []int{len(rows) / max(rank, 1), rank}); err != nil {
		return err
	}
	if rank == 0 && len(x) == 1 && x[0] != 0 {
		// A non-zero scalar has one (empty) index: [1, 0].
		return resize(out, []int{1, 0})
	}
	storeI64(out, rows)
	return nil
}
