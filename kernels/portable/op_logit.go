package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::logit.out", DTypes: realBoolTypes, Fn: logitOut})
}

// aten::logit.out(Tensor self, float? eps=None, *, Tensor(a!) out): log(x / (1 - x)), with x
// first clamped to [eps, 1 - eps] when eps is given. As the official kernel does, out must be
// float32 or float64 (float16 and bfloat16 outs are refused) and out's type is the compute
// type: x is cast to it, compared with eps in float64, clamped to eps or 1 - eps rounded to it,
// and x / (1 - x) is divided in it before the log.
func logitOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxLogitOut(args)
	if err != nil {
		return err
	}
	self, eps, clamp, out := u.Self, u.Eps.Val, u.Eps.OK, u.Out
	ot := out.ScalarType()
	if ot != executor.Float32 && ot != executor.Float64 {
		return unbox.ArgError(2, "out", "out is %s; logit produces floating point, float32 or float64", executor.DTypeName(ot))
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	x := loadF64(self)
	for k, v := range x {
		xi := roundTo(ot, v)
		if clamp {
			if xi < eps {
				xi = roundTo(ot, eps)
			} else if xi > 1-eps {
				xi = roundTo(ot, 1-eps)
			}
		}
		x[k] = math.Log(roundTo(ot, xi/roundTo(ot, 1-xi)))
	}
	storeF64(out, x)
	return nil
}
