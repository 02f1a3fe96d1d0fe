package portable

import "github.com/etgo/etgo/executor"

func init() { register(copyKernel("aten::alias_copy.out", unboxAliasCopyOut)) }

// copyKernel is an operator whose whole effect in a program is NAME(Tensor self, *, Tensor(a!)
// out): a copy of self with its dtype and sizes (alias_copy, detach_copy, lift_fresh_copy, …).
func copyKernel(name string, unbox unboxFn[selfOutArgs]) executor.Kernel {
	return executor.Kernel{Name: name, DTypes: shapeAllTypes, Fn: func(ctx *executor.KernelContext, args []*executor.EValue) error {
		a, err := unbox(args)
		if err != nil {
			return err
		}
		return shapeCopySame(a.Self, a.Out)
	}}
}
