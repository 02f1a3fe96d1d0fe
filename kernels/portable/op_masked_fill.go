package portable

import (
	"fmt"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::masked_fill.Scalar_out", DTypes: realBoolTypes, Fn: maskedFillScalarOut})
}

// aten::masked_fill.Scalar_out(Tensor self, Tensor mask, Scalar value, *, Tensor(a!) out): value
// (cast to self's type) where the Bool mask is true, else self; self and mask broadcast; out has
// self's dtype.
func maskedFillScalarOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxMaskedFillScalarOut(args)
	if err != nil {
		return err
	}
	self, mask, value, out := u.Self, u.Mask, u.Value, u.Out
	st := self.ScalarType()
	if out.ScalarType() != st {
		return fmt.Errorf("%w: out is %s, want self's %s", executor.ErrInvalidArgument, executor.DTypeName(out.ScalarType()), executor.DTypeName(st))
	}
	if mask.ScalarType() != executor.Bool {
		return unbox.ArgError(1, "mask", "want a bool tensor, got %s", executor.DTypeName(mask.ScalarType()))
	}
	shape, err := compareBroadcast(self, mask, out)
	if err != nil {
		return err
	}
	ms, mm := broadcastIndex(self.Sizes(), shape), broadcastIndex(mask.Sizes(), shape)
	m := compareTruth(mask)
	n := out.Numel()
	if isFloat(st) {
		x := loadF64(self)
		r := make([]float64, n)
		for e := range r {
			if at(m, mm, e) {
				r[e] = value.F
			} else {
				r[e] = at(x, ms, e)
			}
		}
		storeF64(out, r) // rounds value to self's precision
		return nil
	}
	// Integral and Bool: a floating value truncates toward zero, except into Bool where any
	// nonzero value (0.5 included) is true; integers wrap to self's width when stored.
	fill := value.I
	if value.IsFloat {
		fill = f64ToI64(value.F)
		if st == executor.Bool && value.F != 0 {
			fill = 1
		}
	}
	x := loadI64(self)
	r := make([]int64, n)
	for e := range r {
		if at(m, mm, e) {
			r[e] = fill
		} else {
			r[e] = at(x, ms, e)
		}
	}
	storeI64(out, r)
	return nil
}
