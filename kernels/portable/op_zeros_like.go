package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::zeros_like.out", DTypes: shapeAllTypes, Fn: zerosLikeOut})
}

// aten::zeros_like.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out): out
// of self's sizes filled with zeros.
func zerosLikeOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	return shapeConstLike(args, 0)
}

// shapeConstLike is zeros_like.out and ones_like.out: (self, memory_format, out, return).
func shapeConstLike(args []*runtime.EValue, value int64) error {
	if err := wantArgs(args, 4); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 2, "out")
	if err != nil {
		return err
	}
	if err := shapeMemoryFormat(args, 1, out); err != nil {
		return err
	}
	return shapeFillLike(self, scalar{f: float64(value), i: value}, out, 0)
}
