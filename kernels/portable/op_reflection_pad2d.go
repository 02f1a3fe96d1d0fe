package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::reflection_pad2d.out", DTypes: realBoolTypes, Fn: reflectionPad2dOut})
}

// aten::reflection_pad2d.out(Tensor self, SymInt[4] padding, *, Tensor(a!) out).
//
// padding is (left, right, top, bottom); the kernel mirrors the input about its edges
// (each pad must be smaller than its dimension), for [C,H,W] or [N,C,H,W] inputs of any real
// dtype or Bool (a copy). A negative pad crops, as in PyTorch.
func reflectionPad2dOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxReflectionPad2dOut(args)
	if err != nil {
		return err
	}
	return poolEdgePad(a, 2, "reflection_pad2d", true)
}
