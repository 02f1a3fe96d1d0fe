package portable

import (
	"math"

	"github.com/etgo/etgo/runtime"
)

func init() {
	register(runtime.Kernel{Name: "aten::logit.out", DTypes: realBoolTypes, Fn: logitOut})
}

// aten::logit.out(Tensor self, float? eps=None, *, Tensor(a!) out): log(x / (1 - x)), with x
// first clamped to [eps, 1 - eps] when eps is given. Integral and bool inputs compute in float32;
// out must be floating.
func logitOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 4); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	eps, clamp, err := optDoubleArg(args, 1, "eps")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 2, "out")
	if err != nil {
		return err
	}
	return arithUnaryToFloat(self, out, func(x float64) float64 {
		if clamp {
			x = math.Min(math.Max(x, eps), 1-eps)
		}
		return math.Log(x / (1 - x))
	})
}
