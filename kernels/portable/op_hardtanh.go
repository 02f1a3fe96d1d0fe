package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::hardtanh.out", DTypes: realTypes, Fn: hardtanhOut})
}

// aten::hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out):
// min(max(self, min_val), max_val), NaN propagating; out of self's dtype. For integral self the
// bounds truncate toward zero and must fit the dtype.
func hardtanhOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxHardtanhOut(args)
	if err != nil {
		return err
	}
	self, lo, hi, out := u.Self, u.MinVal, u.MaxVal, u.Out
	t := self.ScalarType()
	if err := arithWantDTypes(self, realTypes, "hardtanh"); err != nil {
		return err
	}
	if !arithScalarFits(lo, t) {
		return unbox.ArgError(1, "min_val", "%v is out of range for %s", lo.F, executor.DTypeName(t))
	}
	if !arithScalarFits(hi, t) {
		return unbox.ArgError(2, "max_val", "%v is out of range for %s", hi.F, executor.DTypeName(t))
	}
	m := arithOpmath(t)
	lf, hf := roundTo(m, lo.F), roundTo(m, hi.F)
	return arithUnaryKeep(self, out,
		func(x float64) float64 { return arithMinNaN(arithMaxNaN(x, lf), hf) },
		func(x int64) int64 { return min(max(x, lo.I), hi.I) })
}
