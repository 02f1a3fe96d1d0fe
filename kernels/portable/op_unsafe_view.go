package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::_unsafe_view.out", DTypes: shapeAllTypes, Fn: unsafeViewOut})
}

// aten::_unsafe_view.out(Tensor self, SymInt[] size, *, Tensor(a!) out): as view_copy.out.
func unsafeViewOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxUnsafeViewOut(args)
	if err != nil {
		return err
	}
	return shapeViewCopy(a)
}
