package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::scalar_tensor.out", DTypes: shapeAllTypes, Fn: scalarTensorOut})
}

// aten::scalar_tensor.out(Scalar s, *, Tensor(a!) out): a 0-d out holding s cast to its dtype;
// a value the dtype cannot hold is refused.
func scalarTensorOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 3); err != nil {
		return err
	}
	s, err := scalarArg(args, 0, "s")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 1, "out")
	if err != nil {
		return err
	}
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
