package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

func init() {
	registerRule(whereNumber, "aten.where.ScalarOther", "aten.where.ScalarSelf", "aten.where.Scalar")
}

// whereNumber is torch.where with a Python number for one or both branches, as ATen's
// composite overloads write it: the result type of the branches (at::result_type), each number
// a scalar_tensor of that type (with two numbers, other's first), a tensor branch converted to
// it, then where.self.
func whereNumber(b *Builder, n *ir.Node) error {
	cond := n.TensorArg("condition")
	self, other := n.Arg("self"), n.Arg("other")
	if cond == nil || self == nil || other == nil {
		return fmt.Errorf("%s without condition, self or other", n.Target)
	}
	operand := func(a *ir.Arg) (ir.Operand, error) {
		switch a.Kind {
		case ir.ArgTensor:
			if len(a.Values) != 1 || a.Values[0] == nil || a.Values[0].Meta == nil {
				return ir.Operand{}, fmt.Errorf("%s: %s is not a tensor", n.Target, a.Name)
			}
			return ir.TensorOperand(a.Values[0].Meta), nil
		case ir.ArgInt, ir.ArgFloat, ir.ArgBool:
			return ir.ScalarOperand(a.Kind), nil
		}
		return ir.Operand{}, fmt.Errorf("%s with a symbolic or non-number %s is not decomposed yet", n.Target, a.Name)
	}
	so, err := operand(self)
	if err != nil {
		return err
	}
	oo, err := operand(other)
	if err != nil {
		return err
	}
	rt := ir.ResultType(so, oo)
	// The numbers become tensors before a tensor branch is converted (the order ATen's
	// overloads evaluate them in); with two numbers, other's first.
	var st, ot *ir.Value
	if other.Kind != ir.ArgTensor {
		ot = scalarOf(b, *other, rt)
	}
	if self.Kind != ir.ArgTensor {
		st = scalarOf(b, *self, rt)
	}
	if self.Kind == ir.ArgTensor {
		st = convert(b, self.Values[0], rt)
	}
	if other.Kind == ir.ArgTensor {
		ot = convert(b, other.Values[0], rt)
	}
	return b.Replace(b.Call("aten.where.self", T("condition", cond), T("self", st), T("other", ot)))
}
