package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::reflection_pad3d.out", DTypes: realBoolTypes, Fn: reflectionPad3dOut})
}

// aten::reflection_pad3d.out(Tensor self, SymInt[6] padding, *, Tensor(a!) out).
//
// padding is (left, right, top, bottom, front, back); the kernel mirrors the input about its edges
// (each pad must be smaller than its dimension),
// for [C,D,H,W] or [N,C,D,H,W] inputs of any real dtype or Bool (a copy). A negative pad
// crops, as in PyTorch.
func reflectionPad3dOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxReflectionPad3dOut(args)
	if err != nil {
		return err
	}
	return poolEdgePad(a, 3, "reflection_pad3d", true)
}
