package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::argmax.out", DTypes: realTypes, Fn: argmaxOut})
}

// aten::argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out): the int64
// index of the first largest element along dim; with dim None, of the flattened tensor (keepdim
// then gives all-ones sizes). The first NaN counts as the largest.
func argmaxOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxArgmaxOut(args)
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
	return reduceArgExtremeOut(self, set, keepdim, out, 3, reduceGreaterF, reduceGreaterI)
}
