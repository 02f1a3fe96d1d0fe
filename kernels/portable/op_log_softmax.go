package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::_log_softmax.out", DTypes: floatTypes, Fn: logSoftmaxOut})
}

// aten::_log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out):
// x - max - log(sum(exp(x - max))) along dim; see _softmax.out for dtypes and the fast path.
func logSoftmaxOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxLogSoftmaxOut(args)
	if err != nil {
		return err
	}
	return softmaxCommon(a, true)
}
