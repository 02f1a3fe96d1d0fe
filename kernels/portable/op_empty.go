package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::empty.out", DTypes: shapeAllTypes, Fn: emptyOut})
}

// aten::empty.out(SymInt[] size, *, MemoryFormat? memory_format=None, Tensor(a!) out): out
// resized to size; its contents are whatever the memory held (as in ExecuTorch).
func emptyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxEmptyOut(args)
	if err != nil {
		return err
	}
	l, out := u.Size, u.Out
	if err := shapeMemoryFormat(u.MemoryFormat, 1, out); err != nil {
		return err
	}
	sizes, err := shapeSizes(l, 0, "size")
	if err != nil {
		return err
	}
	return resize(out, sizes)
}
