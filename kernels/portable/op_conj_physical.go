package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::_conj_physical.out", DTypes: shapeAllTypes, Fn: conjPhysicalOut})
}

// aten::_conj_physical.out(Tensor self, *, Tensor(a!) out): the complex conjugate, which for the
// real and bool dtypes etgo's tensors have is a copy (complex dtypes are refused at load).
func conjPhysicalOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 3); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 1, "out")
	if err != nil {
		return err
	}
	return shapeCopySame(self, out)
}
