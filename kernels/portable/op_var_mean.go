package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::var_mean.correction_out", DTypes: floatTypes, Fn: varMeanCorrectionOut})
}

// aten::var_mean.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None,
// bool keepdim=False, Tensor(a!) out0, Tensor(b!) out1): var.correction_out's variance (out0) and
// the mean it was measured from (out1). The call's last argument is the TensorList return slot.
func varMeanCorrectionOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxVarMeanCorrectionOut(args)
	if err != nil {
		return err
	}
	return varCore(u.Self, u.Dim.Val, varCorrection(u.Correction), u.Keepdim, u.Out0, 4, u.Out1)
}
