package portable

import (
	"math"

	"github.com/etgo/etgo/runtime"
)

func init() {
	register(runtime.Kernel{Name: "aten::atan2.out", DTypes: realBoolTypes, Fn: atan2Out})
}

// aten::atan2.out(Tensor self, Tensor other, *, Tensor(a!) out): the angle of the point
// (other, self), elementwise with broadcasting; integral and bool operands compute in float32,
// so out must be floating.
func atan2Out(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 4); err != nil {
		return err
	}
	a, b, err := divTensors(args)
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 2, "out")
	if err != nil {
		return err
	}
	return arithBinary(a, b, out, divTrueType(new(typeState).tensor(a).tensor(b)), binaryOp{f: math.Atan2})
}
