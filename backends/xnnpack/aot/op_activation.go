package aot

import (
	"fmt"
	"math"
	"slices"

	"github.com/etgo/etgo/backends/transforms"
	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
	"github.com/etgo/etgo/passes"
)

// The activation family: the clamps (op_relu.py, op_hardtanh.py, op_clamp.py), of which relu
// and hardtanh fold into a producer that takes an output clamp (FuseActivationPass), leaky
// ReLU and ELU (op_leaky_relu.py, op_elu.py; ExecuTorch's EluConfig is disabled, so only the
// visitor is here), GELU (op_gelu.py, and the tanh form's decomposition below), hardswish and
// PReLU (op_prelu.py, channels-last).
func init() {
	register(family{
		name: "activation",
		configs: func(*Partitioner) []*configs.Config {
			return []*configs.Config{
				generic("ClampConfig", "clamp.default", fs, nil),
				generic("GeluConfig", "gelu.default", fOnly, checkGelu),
				generic("HardtanhConfig", "hardtanh.default", fs, nil),
				keep(generic("HardswishConfig", "hardswish.default", fOnly, nil), "aten.hardswish.default"),
				generic("LeakyReLUConfig", "leaky_relu.default", fOnly, nil),
				{Name: "PreluConfig", Target: "prelu.default", Precisions: fOnly, KeepWhole: "aten.prelu.default", Check: checkPrelu, Claim: preluDeps},
				generic("ReLUConfig", "relu.default", fs, nil),
			}
		},
		ops: []op{
			clampOp("aten.relu.default", true, func(*ir.Node) (float32, float32) { return 0, float32(math.Inf(1)) }),
			clampOp("aten.hardtanh.default", true, func(n *ir.Node) (float32, float32) {
				return float32(n.ScalarArg("min_val", -1)), float32(n.ScalarArg("max_val", 1))
			}),
			clampOp("aten.clamp.default", false, func(n *ir.Node) (float32, float32) {
				lo, hi := float32(math.Inf(-1)), float32(math.Inf(1))
				if n.HasScalarArg("min") {
					lo = float32(n.ScalarArg("min", 0))
				}
				if n.HasScalarArg("max") {
					hi = float32(n.ScalarArg("max", 0))
				}
				return lo, hi
			}),
			{target: "aten.leaky_relu.default", visit: visitLeakyReLU},
			{target: "aten.elu.default", visit: visitELU},
			{target: "aten.gelu.default", visit: unaryVisitor(schema.XNodeUnionXNNGelu, exactGelu)},
			unaryOp("aten.hardswish.default", schema.XNodeUnionXNNHardswish),
			// PReLU's slope is per channel: XNNPACK reads it channels-last.
			{target: "aten.prelu.default", visit: binaryVisitor(schema.XNodeUnionXNNPReLU, false, false), layout: layoutNHWC},
		},
	})
}

// clampOp is an activation written as XNNPACK's Clamp node to the range rng gives; folds says
// whether FuseActivationPass folds it into the node before.
func clampOp(target string, folds bool, rng func(n *ir.Node) (lo, hi float32)) op {
	return op{target: target, outputRange: rng, folds: folds, visit: func(p *preprocessor, n *ir.Node) error {
		if err := p.defineIO(n, false); err != nil {
			return err
		}
		lo, hi := rng(n)
		p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNClamp, Inputs: []uint32{p.ids[n.FirstTensorArg()]}, Outputs: []uint32{p.ids[n.FirstOutput()]}})
		x := &p.out.Nodes[len(p.out.Nodes)-1]
		x.OutputMin, x.OutputMax = lo, hi // the clamp's own range, not a fused one
		return nil
	}}
}

func visitLeakyReLU(p *preprocessor, n *ir.Node) error {
	if err := p.defineIO(n, false); err != nil {
		return err
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNLeakyReLU, Alpha: float32(n.ScalarArg("negative_slope", 0.01)),
		Inputs: []uint32{p.ids[n.FirstTensorArg()]}, Outputs: []uint32{p.ids[n.FirstOutput()]}})
	return nil
}

func visitELU(p *preprocessor, n *ir.Node) error {
	if err := p.defineIO(n, false); err != nil {
		return err
	}
	if n.ScalarArg("scale", 1) != 1 || n.ScalarArg("input_scale", 1) != 1 {
		return fmt.Errorf("ELU with scale or input_scale other than 1 is not supported")
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNELU, Alpha: float32(n.ScalarArg("alpha", 1)),
		Inputs: []uint32{p.ids[n.FirstTensorArg()]}, Outputs: []uint32{p.ids[n.FirstOutput()]}})
	return nil
}

// exactGelu refuses an approximated GELU the rewrites left (decomposeTanhGelu takes the tanh
// one): XNNPACK's GELU node computes the erf form.
func exactGelu(n *ir.Node) error {
	if a := n.Arg("approximate"); a != nil && a.Kind == ir.ArgString && a.Str != "none" {
		return fmt.Errorf("XNNPACK's GELU is exact; approximate=%q is not supported", a.Str)
	}
	return nil
}

func checkGelu(_ *configs.Query, n *ir.Node) *partition.Decline {
	if len(n.Outputs) > 0 && n.Outputs[0] != nil && n.Outputs[0].Meta != nil && n.Outputs[0].Meta.DType == ir.Float16 {
		return partition.Declinef(partition.UnsupportedDType, "XNNPACK has no float16 GELU")
	}
	return nil
}

func checkPrelu(q *configs.Query, n *ir.Node) *partition.Decline {
	ins := n.TensorInputs()
	if len(ins) < 2 || !q.IsParam(ins[1]) {
		return partition.Declinef(partition.NonConstantWeight, "prelu weight is computed at run time, not a parameter")
	}
	return nil
}

func preluDeps(_ *configs.Query, n *ir.Node) partition.Claim {
	return partition.Claim{Nodes: []*ir.Node{n}, Constants: n.TensorInputs()[1:2]}
}

// decomposeTanhGelu writes gelu(x, approximate="tanh") as XNNPACK arithmetic, in the order
// ATen's CPU kernel evaluates it: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))). XNNPACK's
// GELU node is the exact (erf) one, and ExecuTorch's GeluVisitor ignores approximate and
// emits it anyway, so the official blob computes the erf form where the model asked for the
// tanh one (up to 4.7e-4 apart); etgo's plan is the same, its blob computes what PyTorch does.
// ExecuTorch has no such pass: its name is etgo's, in ExecuTorch's style.
type decomposeTanhGelu struct{}

func (decomposeTanhGelu) Name() string { return "DecomposeTanhGeluPass" }

func (decomposeTanhGelu) Run(g *ir.Graph) (string, error) {
	params := transforms.ParamsOf(g)
	decomposed := 0
	for i := 0; i < len(g.Nodes); i++ {
		n := g.Nodes[i]
		if n.Target != "aten.gelu.default" {
			continue
		}
		if a := n.Arg("approximate"); a == nil || a.Kind != ir.ArgString || a.Str != "tanh" {
			continue
		}
		x, out := n.FirstTensorArg(), n.FirstOutput()
		if x == nil || out == nil || x.Meta == nil || x.Meta.DType != ir.Float32 {
			return "", fmt.Errorf("node %s: tanh GELU of a non-float32 tensor", n.Name)
		}
		scalar := func(name string, v float32) *ir.Value {
			return params.Add(n.Name+"_"+name, ir.TensorMeta{DType: ir.Float32, Sizes: []ir.Dim{{Size: 1}}}, transforms.Float32Bytes([]float32{v}))
		}
		var nodes []*ir.Node
		call := func(name, target string, a, b *ir.Value, res *ir.Value) *ir.Value {
			args := []ir.Arg{{Name: "self", Kind: ir.ArgTensor, Values: []*ir.Value{a}}}
			if b != nil {
				args = append(args, ir.Arg{Name: "other", Kind: ir.ArgTensor, Values: []*ir.Value{b}})
			}
			m := &ir.Node{Name: n.Name + "_" + name, Target: target, Args: args}
			if res == nil {
				res = g.NewValue(m.Name, &ir.TensorMeta{DType: x.Meta.DType, Sizes: slices.Clone(x.Meta.Sizes)}, m)
			}
			res.Producer = m
			m.Outputs = []*ir.Value{res}
			m.DebugHandle = n.DebugHandle
			nodes = append(nodes, m)
			return res
		}
		const mul, add = "aten.mul.Tensor", "aten.add.Tensor"
		cube := call("cube", mul, call("square", mul, x, x, nil), x, nil)
		inner := call("inner", add, x, call("kappa", mul, cube, scalar("kappa", 0.044715), nil), nil)
		th := call("tanh", "aten.tanh.default", call("beta", mul, inner, scalar("beta", float32(math.Sqrt2*2/math.SqrtPi*0.5)), nil), nil, nil)
		half := call("half", mul, x, scalar("half", 0.5), nil)
		call("gelu", mul, half, call("one_plus", add, th, scalar("one", 1), nil), out)
		g.Nodes = slices.Replace(g.Nodes, i, i+1, nodes...)
		i += len(nodes) - 1
		decomposed++
	}
	return passes.Changes(decomposed, "decomposed %d tanh GELU(s) into arithmetic"), nil
}
