package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::amin.out", DTypes: realBoolTypes, Fn: aminOut})
}

// aten::amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out): the smallest
// element over dim ([] = every dim) into an out of self's dtype. NaN propagates; reducing over
// zero elements is an error.
func aminOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxAminOut(args)
	if err != nil {
		return err
	}
	self, dims, keepdim, out := u.Self, u.Dim, u.Keepdim, u.Out
	set, err := reduceDimList(self.Dim(), dims, 1, "dim")
	if err != nil {
		return err
	}
	return reduceExtremeOut(self, set, keepdim, out, 3, reduceLessF, reduceLessI)
}
