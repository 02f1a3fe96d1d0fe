package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::zeros_like.out", DTypes: shapeAllTypes, Fn: zerosLikeOut})
}

// aten::zeros_like.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out): out
// of self's sizes filled with zeros.
func zerosLikeOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxZerosLikeOut(args)
	if err != nil {
		return err
	}
	return shapeConstLike(u, 0)
}

// shapeConstLike is zeros_like.out and ones_like.out, whose arguments match.
func shapeConstLike(u selfMemoryFormatOutArgs, value int64) error {
	self, out := u.Self, u.Out
	if err := shapeMemoryFormat(u.MemoryFormat, 1, out); err != nil {
		return err
	}
	return shapeFillLike(self, scalar{F: float64(value), I: value}, out, 0)
}
