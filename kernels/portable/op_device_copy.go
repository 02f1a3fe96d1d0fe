package portable

import "github.com/etgo/etgo/runtime"

// et_copy::_h2d_copy.out(Tensor self, *, Tensor(a!) out) and et_copy::_d2h_copy.out: the copies
// ExecuTorch inserts between host memory and a device's. etgo's tensors all live in host memory,
// so both are plain copies.
func init() {
	for _, name := range []string{"et_copy::_h2d_copy.out", "et_copy::_d2h_copy.out"} {
		register(runtime.Kernel{Name: name, DTypes: shapeAllTypes, Fn: deviceCopyOut})
	}
}

func deviceCopyOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
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
