package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::logical_not.out", DTypes: realBoolTypes, Fn: logicalNotOut})
}

// aten::logical_not.out(Tensor self, *, Tensor(a!) out): 1 where self is zero, else 0 (NaN is
// true, so its negation is 0); out may be of any type.
func logicalNotOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxLogicalNotOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	v := compareTruth(self)
	for i, b := range v {
		v[i] = !b
	}
	compareStoreBool(out, v)
	return nil
}
