package aot

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// The GEMM family (gemm_configs.py; op_linear.py, op_addmm.py, op_matrix_multiplication.py,
// op_bmm.py): linear, addmm and mm as XNNPACK's fully-connected node, their weight and bias
// claimed with them, and the batch matrix multiply. The convolution's config is a GEMM config
// too (op_conv.go).
func init() {
	register(family{
		name: "gemm",
		configs: func(p *Partitioner) []*configs.Config {
			force := p.ForceNonStaticWeightsForF32Linear
			return []*configs.Config{
				gemmConfig("AddmmConfig", "addmm.default", "", gemm{weight: "mat2", bias: "self", linearLike: true, force: force}, nil),
				generic("BMMConfig", "bmm.default", fOnly, nil),
				gemmConfig("LinearConfig", "linear.default", targetLinear, gemm{weight: "weight", bias: "bias", linearLike: true, force: force}, nil),
				gemmConfig("MMConfig", "mm.default", "", gemm{weight: "mat2", linearLike: true, force: force}, nil),
			}
		},
		ops: []op{
			// linear's feature axis is the last of an NCHW tensor.
			{target: targetLinear, visit: (*preprocessor).visitLinear, layout: layoutNCHW, takesActivation: true},
			{target: "aten.addmm.default", visit: (*preprocessor).visitMatmul},
			{target: "aten.mm.default", visit: (*preprocessor).visitMatmul},
			binaryOp("aten.bmm.default", schema.XNodeUnionXNNBatchMatrixMultiply),
		},
	})
}

const targetLinear = "aten.linear.default"

// gemmConfig is a config for a weight-carrying matrix op (linear, convolution, addmm, mm), in
// every precision ExecuTorch's GEMMConfig supports: the weight and bias must be parameters (the
// backend packs them into its blob) and are claimed with the node, as is one trailing relu or
// hardtanh, which XNNPACK fuses. more, if any, is the operator's own check, once its
// dependencies pass.
func gemmConfig(name, target, aten string, g gemm, more check) *configs.Config {
	return &configs.Config{Name: name, Target: target, Precisions: fsd, KeepWhole: aten,
		Check: func(q *configs.Query, n *ir.Node) *partition.Decline {
			_, d := g.deps(q, n)
			if d != nil || more == nil {
				return d
			}
			return more(q, n)
		},
		Claim: func(q *configs.Query, n *ir.Node) partition.Claim {
			claim, _ := g.deps(q, n)
			return claim
		},
	}
}

// gemm is what a GEMM config knows of its operator: the names of its weight and bias
// arguments, whether it is linear-like (the ops whose fp32 weight
// ForceNonStaticWeightsForF32Linear leaves outside), and that option (force).
type gemm struct {
	weight, bias      string
	linearLike, force bool
}

// deps is GEMMConfig.get_deps for the fp32 path. A weight produced by a dequantize node is a
// quantised GEMM: with only fp32 enabled, linear then runs as fp32 without taking the weight (as
// ExecuTorch does); the quantised paths themselves are not implemented yet and decline.
func (g gemm) deps(q *configs.Query, n *ir.Node) (partition.Claim, *partition.Decline) {
	claim := partition.Claim{Nodes: []*ir.Node{n}}
	w := n.TensorArg(g.weight)
	if w == nil {
		return claim, partition.Declinef(partition.Geometry, "%s has no %s argument", n.Target, g.weight)
	}
	takeWeight := !(g.linearLike && g.force)
	if w.Producer != nil && configs.IsDequantize(w.Producer) {
		if !slices.Equal(q.Enabled, fOnly) {
			return claim, partition.Declinef(partition.PrecisionNotEnabled, "quantised %s (weight from %s): etgo does not partition quantised GEMMs yet", configs.FormatTarget(n.Target), w.Producer.Target)
		}
		if q.Config.Target != "linear.default" {
			return claim, partition.Declinef(partition.NonConstantWeight, "weight %s is computed at run time (a dequantize node), not a parameter", w.Name)
		}
		takeWeight = false // quantised linear partitioned as fp32: the dq chain stays outside
	}
	if !g.force && g.bias != "" && len(n.TensorInputs()) > 2 {
		if b := n.TensorArg(g.bias); b != nil {
			if !q.IsParam(b) {
				return claim, partition.Declinef(partition.NonConstantWeight, "bias %s is computed at run time, not a parameter", b.Name)
			}
			claim.Constants = append(claim.Constants, b)
		}
	}
	if takeWeight {
		if !q.IsParam(w) {
			return claim, partition.Declinef(partition.NonConstantWeight, "weight %s is computed at run time, not a parameter", w.Name)
		}
		claim.Constants = append(claim.Constants, w)
	}
	if len(n.Outputs) == 1 {
		if u := q.SoleUser(n.Outputs[0]); u != nil {
			if t := configs.FormatTarget(u.Target); t == "relu.default" || t == "hardtanh.default" {
				claim.Nodes = append(claim.Nodes, u)
			}
		}
	}
	return claim, nil
}

func (p *preprocessor) visitLinear(n *ir.Node) error {
	in, w, b, out := n.TensorArg("input"), n.TensorArg("weight"), n.TensorArg("bias"), n.FirstOutput()
	if in == nil || w == nil {
		return fmt.Errorf("linear without input or weight")
	}
	for _, v := range []*ir.Value{in, w, b, out} {
		if v != nil {
			if err := p.define(v, tensorOpts{}); err != nil {
				return err
			}
		}
	}
	bias := uint32(xnngraph.InvalidID)
	if b != nil {
		bias = p.ids[b]
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNFullyConnected, Inputs: []uint32{p.ids[in], p.ids[w], bias}, Outputs: []uint32{p.ids[out]}})
	return nil
}

// visitMatmul serialises addmm (bias + mat1 @ mat2) and mm as a fully-connected node whose
// filter is stored [K, N] (XNN_FLAG_TRANSPOSE_WEIGHTS).
func (p *preprocessor) visitMatmul(n *ir.Node) error {
	out := n.FirstOutput()
	var in, w, b *ir.Value
	if n.Target == "aten.addmm.default" {
		if n.ScalarArg("beta", 1) != 1 || n.ScalarArg("alpha", 1) != 1 {
			return fmt.Errorf("addmm with beta or alpha other than 1 is not supported")
		}
		b, in, w = n.TensorArg("self"), n.TensorArg("mat1"), n.TensorArg("mat2")
		if b == nil {
			return fmt.Errorf("addmm without bias")
		}
		for _, v := range []*ir.Value{out, in, w, b} {
			if err := p.define(v, tensorOpts{}); err != nil {
				return err
			}
		}
	} else {
		in, w = n.TensorArg("self"), n.TensorArg("mat2")
		if err := p.defineIO(n, false); err != nil {
			return err
		}
	}
	if in == nil || w == nil {
		return fmt.Errorf("matrix multiply without both operands")
	}
	bias := uint32(xnngraph.InvalidID)
	if b != nil {
		bias = p.ids[b]
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNFullyConnected, Flags: xnngraph.FlagTransposeWeights, Inputs: []uint32{p.ids[in], p.ids[w], bias}, Outputs: []uint32{p.ids[out]}})
	return nil
}
