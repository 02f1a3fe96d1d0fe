package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::baddbmm.out", DTypes: realTypes, Fn: baddbmmOut})
}

// aten::baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1,
// Scalar alpha=1, Tensor(a!) out): beta·self + alpha·(batch1 [b, m, k] · batch2 [b, k, n]) per
// batch entry, with self broadcasting to [b, m, n]. Beta, alpha and dtypes behave as in addmm.
// (ExecuTorch's portable library has no baddbmm; this follows PyTorch.)
func baddbmmOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxBaddbmmOut(args)
	if err != nil {
		return err
	}
	return linalgAddmm(a.Self, a.Batch1, a.Batch2, a.Beta, a.Alpha, a.Out, true)
}
