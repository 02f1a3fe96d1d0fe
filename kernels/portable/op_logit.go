package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
)

func init() {
	register(executor.Kernel{Name: "aten::logit.out", DTypes: realBoolTypes, Fn: logitOut})
}

// aten::logit.out(Tensor self, float? eps=None, *, Tensor(a!) out): log(x / (1 - x)), with x
// first clamped to [eps, 1 - eps] when eps is given. Integral and bool inputs compute in float32;
// out must be floating.
func logitOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxLogitOut(args)
	if err != nil {
		return err
	}
	self, eps, clamp, out := u.Self, u.Eps.Val, u.Eps.OK, u.Out
	f := func(x float64) float64 {
		if clamp {
			x = math.Min(math.Max(x, eps), 1-eps)
		}
		return math.Log(x / (1 - x))
	}
	return arithUnaryToFloat(self, out, f, arithViaF64(f))
}
