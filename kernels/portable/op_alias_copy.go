package portable

import "github.com/etgo/etgo/runtime"

func init() { register(copyKernel("aten::alias_copy.out")) }

// copyKernel is an operator whose whole effect in a program is NAME(Tensor self, *, Tensor(a!)
// out): a copy of self with its dtype and sizes (alias_copy, detach_copy, lift_fresh_copy, …).
func copyKernel(name string) runtime.Kernel {
	return runtime.Kernel{Name: name, DTypes: shapeAllTypes, Fn: plainCopyOut}
}

func plainCopyOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
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
