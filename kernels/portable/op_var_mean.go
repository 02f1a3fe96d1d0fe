package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::var_mean.correction_out", DTypes: floatTypes, Fn: varMeanCorrectionOut})
}

// aten::var_mean.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None,
// bool keepdim=False, Tensor(a!) out0, Tensor(b!) out1): var.correction_out's variance (out0) and
// the mean it was measured from (out1). The call's last argument is the TensorList return slot.
func varMeanCorrectionOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 7); err != nil {
		return err
	}
	c, err := varCorrectionArgs(args)
	if err != nil {
		return err
	}
	out0, err := tensorArg(args, 4, "out0")
	if err != nil {
		return err
	}
	out1, err := tensorArg(args, 5, "out1")
	if err != nil {
		return err
	}
	return varCore(c.self, c.dims, c.correction, c.keepdim, out0, 4, out1)
}
