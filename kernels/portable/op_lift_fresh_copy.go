package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::lift_fresh_copy.out", DTypes: shapeAllTypes, Fn: liftFreshCopyOut})
}

// aten::lift_fresh_copy.out(Tensor self, *, Tensor(a!) out): a copy of self (no autograd in a program, so
// the copy is all that is left of the operator).
func liftFreshCopyOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 3); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 1, "out")
	if err != nil {
		return err
	}
	return shapeCopySame(self, out)
}
