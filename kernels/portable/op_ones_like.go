package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::ones_like.out", DTypes: shapeAllTypes, Fn: onesLikeOut})
}

// aten::ones_like.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out): out of
// self's sizes filled with ones.
func onesLikeOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxOnesLikeOut(args)
	if err != nil {
		return err
	}
	return shapeConstLike(u, 1)
}
