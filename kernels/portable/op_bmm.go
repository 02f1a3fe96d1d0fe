package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::bmm.out", DTypes: realTypes, Fn: bmmOut})
}

// aten::bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out): the batched matrix product of
// self [b, m, k] and mat2 [b, k, n] into out [b, m, n], one product per batch entry. All three
// share one dtype (not Bool) and the default dim order; integral products wrap in the out type.
func bmmOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxBmmOut(args)
	if err != nil {
		return err
	}
	a, b, out := u.Self, u.Mat2, u.Out
	p, err := linalgMatmulCheck(a, b, out, 0, 1, 2, "self", "mat2", true)
	if err != nil {
		return err
	}
	p.run()
	return nil
}
