package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::relu.out", DTypes: realTypes, Fn: reluOut})
}

// aten::relu.out(Tensor self, *, Tensor(a!) out).
func reluOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxReluOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	return unaryReal(self, out,
		func(x float64) float64 {
			if x > 0 || x != x { // NaN propagates, as in PyTorch
				return x
			}
			return 0
		},
		func(x int64) int64 { return max(x, 0) })
}
