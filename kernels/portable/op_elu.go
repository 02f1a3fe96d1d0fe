package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
)

func init() {
	register(executor.Kernel{Name: "aten::elu.out", DTypes: floatTypes, Fn: eluOut})
}

// aten::elu.out(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1, *,
// Tensor(a!) out): x*scale if x > 0 else expm1(x*input_scale) * alpha*scale; floating types
// only, out of self's dtype.
func eluOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxEluOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	sc := [3]float64{u.Alpha.F, u.Scale.F, u.InputScale.F}
	if err := arithWantDTypes(self, floatTypes, "elu"); err != nil {
		return err
	}
	m := arithOpmath(self.ScalarType())
	alpha, scale, inScale := roundTo(m, sc[0]), roundTo(m, sc[1]), roundTo(m, sc[2])
	neg := roundTo(m, alpha*scale)
	return arithUnaryKeep(self, out, func(x float64) float64 {
		if x <= 0 {
			return math.Expm1(roundTo(m, x*inScale)) * neg
		}
		return x * scale
	}, nil)
}
