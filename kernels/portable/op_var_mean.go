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
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	dims, _, err := optIntListArg(args, 1, "dim")
	if err != nil {
		return err
	}
	correction := 1.0
	if v, err := arg(args, 2, "correction"); err != nil {
		return err
	} else if !v.IsNone() {
		s, err := scalarArg(args, 2, "correction")
		if err != nil {
			return err
		}
		correction = s.f
	}
	keepdim, err := boolArg(args, 3, "keepdim")
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
	return varCore(self, dims, correction, keepdim, out0, 4, out1)
}
