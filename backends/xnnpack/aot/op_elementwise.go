package aot

import (
	"fmt"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// The elementwise family: unary math (op_abs.py, op_exp.py, …), the binary arithmetic that
// takes a fused activation (op_add.py, op_sub.py, op_multiply.py), the other broadcasting
// binaries (op_div.py, op_maximum.py, op_minimum.py) and x**2 (op_square.py).
func init() {
	register(family{
		name: "elementwise",
		configs: func(*Partitioner) []*configs.Config {
			return []*configs.Config{
				generic("AbsConfig", "abs.default", fOnly, nil),
				generic("AddConfig", "add.Tensor", fs, checkAlpha("add"), "relu.default"),
				generic("CeilConfig", "ceil.default", fOnly, nil),
				generic("DivConfig", "div.Tensor", fOnly, nil),
				generic("ExpConfig", "exp.default", fOnly, nil),
				generic("FloorConfig", "floor.default", fOnly, nil),
				generic("LogConfig", "log.default", fOnly, nil),
				generic("MaximumConfig", "maximum.default", fOnly, nil),
				generic("MinimumConfig", "minimum.default", fOnly, nil),
				generic("MulConfig", "mul.Tensor", fs, nil),
				generic("NegConfig", "neg.default", fOnly, nil),
				generic("PowConfig", "pow.Tensor_Scalar", fOnly, checkPow),
				generic("ReciprocalSquareRootConfig", "rsqrt.default", fOnly, nil),
				generic("TanhConfig", "tanh.default", fOnly, nil),
				generic("SigmoidConfig", "sigmoid.default", fOnly, nil),
				generic("SinConfig", "sin.default", fOnly, nil),
				generic("CosConfig", "cos.default", fOnly, nil),
				generic("SquareRootConfig", "sqrt.default", fOnly, nil),
				generic("SubConfig", "sub.Tensor", fs, checkAlpha("sub")),
			}
		},
		ops: []op{
			unaryOp("aten.abs.default", schema.XNodeUnionXNNAbs),
			unaryOp("aten.ceil.default", schema.XNodeUnionXNNCeiling),
			unaryOp("aten.floor.default", schema.XNodeUnionXNNFloor),
			unaryOp("aten.sigmoid.default", schema.XNodeUnionXNNSigmoid),
			unaryOp("aten.tanh.default", schema.XNodeUnionXNNTanh),
			unaryOp("aten.exp.default", schema.XNodeUnionXNNExp),
			unaryOp("aten.log.default", schema.XNodeUnionXNNLog),
			unaryOp("aten.sqrt.default", schema.XNodeUnionXNNSquareRoot),
			unaryOp("aten.rsqrt.default", schema.XNodeUnionXNNReciprocalSquareRoot),
			unaryOp("aten.neg.default", schema.XNodeUnionXNNNegate),
			unaryOp("aten.sin.default", schema.XNodeUnionXNNSin),
			unaryOp("aten.cos.default", schema.XNodeUnionXNNCos),
			arithmeticOp("aten.add.Tensor", schema.XNodeUnionXNNAdd, true),
			arithmeticOp("aten.sub.Tensor", schema.XNodeUnionXNNSubtract, true),
			arithmeticOp("aten.mul.Tensor", schema.XNodeUnionXNNMultiply, false),
			binaryOp("aten.div.Tensor", schema.XNodeUnionXNNDiv),
			binaryOp("aten.maximum.default", schema.XNodeUnionXNNMaximum),
			binaryOp("aten.minimum.default", schema.XNodeUnionXNNMinimum),
			{target: "aten.pow.Tensor_Scalar", visit: visitSquare},
		},
	})
}

// unaryOp is a one-input, one-output operator with no parameters, written as x.
func unaryOp(target string, x schema.XNodeUnion) op {
	return op{target: target, visit: unaryVisitor(x, nil)}
}

// unaryVisitor writes x; check, if any, refuses a node once its tensors are defined.
func unaryVisitor(x schema.XNodeUnion, check func(n *ir.Node) error) visitor {
	return func(p *preprocessor, n *ir.Node) error {
		if err := p.defineIO(n, false); err != nil {
			return err
		}
		if check != nil {
			if err := check(n); err != nil {
				return err
			}
		}
		p.node(n, xnngraph.Node{Op: x, Inputs: []uint32{p.ids[n.FirstTensorArg()]}, Outputs: []uint32{p.ids[n.FirstOutput()]}})
		return nil
	}
}

// binaryOp is a two-input broadcasting operator written as x, its tensors defined output first
// (define_nodes_tensor_inputs_outputs).
func binaryOp(target string, x schema.XNodeUnion) op {
	return op{target: target, visit: binaryVisitor(x, false, false)}
}

// arithmeticOp is add, sub or mul: XNNPACK's node takes the fused activation, and the visitor
// defines the inputs before the output, as op_add.py reads the fused activation between them;
// add and sub take alpha 1 only.
func arithmeticOp(target string, x schema.XNodeUnion, alpha bool) op {
	return op{target: target, takesActivation: true, visit: binaryVisitor(x, true, alpha)}
}

// binaryVisitor writes x of self and its second operand: other, or bmm's mat2, or prelu's
// weight.
func binaryVisitor(x schema.XNodeUnion, inputsFirst, alpha bool) visitor {
	return func(p *preprocessor, n *ir.Node) error {
		if alpha && n.ScalarArg("alpha", 1) != 1 {
			return fmt.Errorf("alpha %v is not supported", n.ScalarArg("alpha", 1))
		}
		a, b, out := n.TensorArg("self"), n.TensorArg("other"), n.FirstOutput()
		if b == nil {
			b = n.TensorArg("mat2")
		}
		if b == nil {
			b = n.TensorArg("weight")
		}
		if a == nil || b == nil {
			return fmt.Errorf("needs two tensor operands")
		}
		if inputsFirst {
			for _, v := range []*ir.Value{a, b, out} {
				if err := p.define(v, tensorOpts{}); err != nil {
					return err
				}
			}
		} else if err := p.defineIO(n, false); err != nil {
			return err
		}
		p.node(n, xnngraph.Node{Op: x, Inputs: []uint32{p.ids[a], p.ids[b]}, Outputs: []uint32{p.ids[out]}})
		return nil
	}
}

// visitSquare writes x**2, the only power XNNPACK lowers (PowConfig admits no other).
func visitSquare(p *preprocessor, n *ir.Node) error {
	if n.ScalarArg("exponent", 0) != 2 {
		return fmt.Errorf("only the square (exponent 2) is supported")
	}
	if err := p.defineIO(n, false); err != nil {
		return err
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNSquare, Inputs: []uint32{p.ids[n.FirstTensorArg()]}, Outputs: []uint32{p.ids[n.FirstOutput()]}})
	return nil
}

func checkAlpha(op string) check {
	return func(_ *configs.Query, n *ir.Node) *partition.Decline {
		if alpha := n.ScalarArg("alpha", 1); alpha < 1-1e-9 || alpha > 1+1e-9 {
			return partition.Declinef(partition.Geometry, "%s with alpha %g; XNNPACK supports alpha 1", op, alpha)
		}
		return nil
	}
}

func checkPow(_ *configs.Query, n *ir.Node) *partition.Decline {
	a := n.Arg("exponent")
	if a == nil || a.Kind != ir.ArgInt {
		return partition.Declinef(partition.Geometry, "pow with a non-integer exponent; XNNPACK lowers only x**2")
	}
	if a.Int != 2 {
		return partition.Declinef(partition.Geometry, "pow with exponent %d; XNNPACK lowers only x**2", a.Int)
	}
	return nil
}
