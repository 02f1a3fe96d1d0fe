package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::clone.out", DTypes: shapeAllTypes, Fn: cloneOut})
}

// aten::clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out): a copy of
// self (same dtype), written in out's dim order. memory_format may be None, contiguous (out
// must then be contiguous) or preserve.
func cloneOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxCloneOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	if err := shapeMemoryFormat(u.MemoryFormat, 1, out); err != nil {
		return err
	}
	return shapeCopySame(self, out)
}

// shapeCopySame copies self into out (same dtype, out resized to self's sizes, any dim orders).
func shapeCopySame(self, out *executor.Tensor) error {
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	shapeWrite(out, self, shapeViewOf(self))
	return nil
}
