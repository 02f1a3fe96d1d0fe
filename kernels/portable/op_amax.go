package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::amax.out", DTypes: realBoolTypes, Fn: amaxOut})
}

// aten::amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out): the largest
// element over dim ([] = every dim) into an out of self's dtype. NaN propagates; reducing over
// zero elements is an error.
func amaxOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 5); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	dims, err := intListArg(args, 1, "dim")
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
	set, err := reduceDimList(self.Dim(), dims, 1, "dim")
	if err != nil {
		return err
	}
	return reduceExtremeOut(self, set, keepdim, out, 3, reduceGreaterF, reduceGreaterI)
}
