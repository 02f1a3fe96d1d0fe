package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
)

func init() {
	register(executor.Kernel{Name: "aten::atan2.out", DTypes: realBoolTypes, Fn: atan2Out})
}

// aten::atan2.out(Tensor self, Tensor other, *, Tensor(a!) out): the angle of the point
// (other, self), elementwise with broadcasting; integral and bool operands compute in float32,
// so out must be floating.
func atan2Out(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxAtan2Out(args)
	if err != nil {
		return err
	}
	a, b, out := u.Self, u.Other, u.Out
	return arithBinary(a, b, out, divTrueType(new(typeState).tensor(a).tensor(b)), binaryOp{f: math.Atan2})
}
