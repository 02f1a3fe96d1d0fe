package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::floor_divide.out", DTypes: realTypes, Fn: floorDivideOut})
}

// aten::floor_divide.out(Tensor self, Tensor other, *, Tensor(a!) out): self // other, which is
// div with rounding_mode="floor": in the operands' promoted type, rounded toward negative
// infinity; integral division by zero is an error.
func floorDivideOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxFloorDivideOut(args)
	if err != nil {
		return err
	}
	a, b, out := u.Self, u.Other, u.Out
	common := new(typeState).tensor(a).tensor(b).result()
	op, err := divRoundingOp("floor", common)
	if err != nil {
		return err
	}
	return arithBinary(a, b, out, common, op)
}
