package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::reflection_pad1d.out", DTypes: realBoolTypes, Fn: reflectionPad1dOut})
}

// aten::reflection_pad1d.out(Tensor self, SymInt[2] padding, *, Tensor(a!) out).
//
// padding is (left, right); the kernel mirrors the input about its edges
// (each pad must be smaller than its dimension), for [C,W] or [N,C,W] inputs of any real
// dtype or Bool (a copy). A negative pad crops, as in PyTorch.
func reflectionPad1dOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxReflectionPad1dOut(args)
	if err != nil {
		return err
	}
	return poolEdgePad(a, 1, "reflection_pad1d", true)
}
