package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::scalar_tensor.out", DTypes: shapeAllTypes, Fn: scalarTensorOut})
}

// aten::scalar_tensor.out(Scalar s, *, Tensor(a!) out): a 0-d out holding s cast to its dtype;
// a value the dtype cannot hold is refused.
func scalarTensorOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxScalarTensorOut(args)
	if err != nil {
		return err
	}
	s, out := u.S, u.Out
	v, err := shapeFillValue(s, out.ScalarType(), 0, "s")
	if err != nil {
		return err
	}
	if err := resize(out, []int{}); err != nil {
		return err
	}
	shapeFill(out, v)
	return nil
}
