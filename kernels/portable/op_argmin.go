package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::argmin.out", DTypes: realTypes, Fn: argminOut})
}

// aten::argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out): the int64
// index of the first smallest element along dim; with dim None, of the flattened tensor (keepdim
// then gives all-ones sizes). The first NaN counts as the smallest.
func argminOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxArgminOut(args)
	if err != nil {
		return err
	}
	self, dim, hasDim, keepdim, out := u.Self, u.Dim.Val, u.Dim.OK, u.Keepdim, u.Out
	set := reduceAllDims(self.Dim())
	if hasDim {
		if set, err = reduceOneDim(self.Dim(), dim, 1, "dim"); err != nil {
			return err
		}
	}
	return reduceArgExtremeOut(self, set, keepdim, out, 3, reduceLessF, reduceLessI)
}
