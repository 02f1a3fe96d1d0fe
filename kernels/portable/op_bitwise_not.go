package portable

import (
	"fmt"

	"github.com/etgo/etgo/executor"
)

func init() {
	register(executor.Kernel{Name: "aten::bitwise_not.out", DTypes: compareIntBoolTypes, Fn: bitwiseNotOut})
}

// aten::bitwise_not.out(Tensor self, *, Tensor(a!) out): ~self for integral types, !self for
// Bool; out has self's dtype; floating inputs are an error.
func bitwiseNotOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxBitwiseNotOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	st := self.ScalarType()
	if st != executor.Bool && !isIntegral(st) {
		return fmt.Errorf("%w: bitwise_not is not implemented for %s (integral and bool only)", executor.ErrInvalidArgument, executor.DTypeName(st))
	}
	if out.ScalarType() != st {
		return fmt.Errorf("%w: out is %s, want self's %s", executor.ErrInvalidArgument, executor.DTypeName(out.ScalarType()), executor.DTypeName(st))
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	if st == executor.Bool {
		v := compareTruth(self)
		for i, b := range v {
			v[i] = !b
		}
		compareStoreBool(out, v)
		return nil
	}
	v := loadI64(self)
	for i, x := range v {
		v[i] = ^x // storing wraps to the width of out, which is self's type
	}
	storeI64(out, v)
	return nil
}
