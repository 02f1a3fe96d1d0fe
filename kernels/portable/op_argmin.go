package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::argmin.out", DTypes: realTypes, Fn: argminOut})
}

// aten::argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out): the int64
// index of the first smallest element along dim; with dim None, of the flattened tensor (keepdim
// then gives all-ones sizes). The first NaN counts as the smallest.
func argminOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 5); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	dim, hasDim, err := optIntArg(args, 1, "dim")
	if err != nil {
		return err
	}
	keepdim, err := boolArg(args, 2, "keepdim")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 3, "out")
	if err != nil {
		return err
	}
	set := reduceAllDims(self.Dim())
	if hasDim {
		if set, err = reduceOneDim(self.Dim(), dim, 1, "dim"); err != nil {
			return err
		}
	}
	return reduceArgExtremeOut(self, set, keepdim, out, 3, reduceLessF, reduceLessI)
}
