package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::relu.out", DTypes: realTypes, Fn: reluOut})
}

// aten::relu.out(Tensor self, *, Tensor(a!) out).
func reluOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
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
	return unaryReal(self, out,
		func(x float64) float64 {
			if x > 0 || x != x { // NaN propagates, as in PyTorch
				return x
			}
			return 0
		},
		func(x int64) int64 { return max(x, 0) })
}
