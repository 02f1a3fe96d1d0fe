package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::leaky_relu.out", DTypes: floatTypes, Fn: leakyReluOut})
}

// aten::leaky_relu.out(Tensor self, Scalar negative_slope=0.01, *, Tensor(a!) out):
// x if x >= 0 else x*negative_slope; floating types only, out of self's dtype.
func leakyReluOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxLeakyReluOut(args)
	if err != nil {
		return err
	}
	self, slope, out := u.Self, u.NegativeSlope, u.Out
	if err := arithWantDTypes(self, floatTypes, "leaky_relu"); err != nil {
		return err
	}
	if !arithScalarFits(slope, self.ScalarType()) {
		return unbox.ArgError(1, "negative_slope", "%v is out of range for %s", slope.F, executor.DTypeName(self.ScalarType()))
	}
	// The official kernel casts the slope to CTYPE, the tensor's own dtype (bf16 0.1 is 0.10009765625).
	s := roundTo(self.ScalarType(), slope.F)
	return arithUnaryKeep(self, out, func(x float64) float64 {
		if x >= 0 {
			return x
		}
		return x * s
	}, nil)
}
