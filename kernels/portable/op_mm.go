package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::mm.out", DTypes: realTypes, Fn: mmOut})
}

// aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out): the matrix product of self [m, k]
// and mat2 [k, n] into out [m, n]. All three share one dtype (not Bool) and the default dim
// order; integral products wrap in the out type.
func mmOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxMmOut(args)
	if err != nil {
		return err
	}
	a, b, out := u.Self, u.Mat2, u.Out
	p, err := linalgMatmulCheck(a, b, out, 0, 1, 2, "self", "mat2", false)
	if err != nil {
		return err
	}
	p.run()
	return nil
}
