package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::gelu.out", DTypes: floatTypes, Fn: geluOut})
}

// aten::gelu.out(Tensor self, *, str approximate="none", Tensor(a!) out):
// "none": x/2 * (1 + erf(x/sqrt(2))); "tanh": x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715x^3))).
func geluOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxGeluOut(args)
	if err != nil {
		return err
	}
	self, approx, out := u.Self, u.Approximate, u.Out
	if err := arithWantDTypes(self, floatTypes, "gelu"); err != nil {
		return err
	}
	var f func(float64) float64
	switch approx {
	case "none":
		// No case for the infinities: the official runtime's gelu(+Inf) is +Inf and gelu(-Inf)
		// NaN (-Inf·0), as the formula gives (ExecuTorch's portable source maps -Inf to 0, but
		// the pip runtime's gelu does not; testdata/nan/ops/unary).
		f = func(x float64) float64 { return 0.5 * x * (1 + math.Erf(x*(1/math.Sqrt2))) }
	case "tanh":
		const beta = 0.7978845608028654 // sqrt(2/pi)
		const kappa = 0.044715
		f = func(x float64) float64 { return 0.5 * x * (1 + math.Tanh(beta*(x+kappa*x*x*x))) }
	default:
		return unbox.ArgError(1, "approximate", "want \"none\" or \"tanh\", got %q", approx)
	}
	return arithUnaryKeep(self, out, f, nil)
}
