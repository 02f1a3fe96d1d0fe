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
				gemmConfig("AddmmConfig", "addmm.default", "", gemm{weight: "mat2", bias: "self", act: "mat1", linearLike: true, force: force}, nil),
				generic("BMMConfig", "bmm.default", fOnly, nil),
				gemmConfig("LinearConfig", "linear.default", targetLinear, gemm{weight: "weight", bias: "bias", act: "input", linearLike: true, force: force}, nil),
				gemmConfig("MMConfig", "mm.default", "", gemm{weight: "mat2", act: "self", linearLike: true, force: force}, nil),
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
	weight, bias, act string
	linearLike, force bool
	// padAbsorb: a convolution takes a zero constant pad before it under quantisation.
	padAbsorb bool
}

// gemmPrecision is GEMMConfig._detect_precision: a weight produced by a dequantize node makes
// the GEMM quantised, dynamically when its activation is dequantized with run-time parameters.
func (g gemm) precision(n *ir.Node) configs.Precision {
	w := n.TensorArg(g.weight)
	if w == nil || !configs.IsDequantize(w.Producer) {
		return configs.FP32
	}
	if a := n.TensorArg(g.act); a != nil && configs.IsDynamicQDQ(a.Producer) {
		return configs.DynamicQuant
	}
	return configs.StaticQuant
}

// deps is GEMMConfig.get_deps: the bias, weight, activation and output dependencies of the
// detected precision. A quantised GEMM takes its weight's dequantize (with a per-channel
// weight's scales and zero points), its activation's dequantize (and for dynamic quantisation
// the quantize and choose-qparams before it) and, statically quantised, its output's quantize
// through one fused relu or hardtanh. With only fp32 enabled, a quantised GEMM runs as fp32; a
// linear then leaves its weight's dequantize outside (as ExecuTorch does).
func (g gemm) deps(q *configs.Query, n *ir.Node) (partition.Claim, *partition.Decline) {
	claim := partition.Claim{Nodes: []*ir.Node{n}}
	w := n.TensorArg(g.weight)
	if w == nil {
		return claim, partition.Declinef(partition.Geometry, "%s has no %s argument", n.Target, g.weight)
	}
	prec := g.precision(n)
	if !slices.Contains(q.Config.Precisions, prec) {
		return claim, partition.Declinef(partition.PrecisionNotEnabled, "unsupported precision type %v", prec)
	}
	overwritten := false
	if !q.Enables(prec) && slices.Equal(q.Enabled, fOnly) && prec != configs.FP32 {
		prec, overwritten = configs.FP32, true
	}
	fp32Force := prec == configs.FP32 && g.force
	// bias
	if !fp32Force && g.bias != "" && len(n.TensorInputs()) > 2 {
		if b := n.TensorArg(g.bias); b != nil {
			if !q.IsParam(b) {
				return claim, partition.Declinef(partition.NonConstantWeight, "bias %s is computed at run time, not a parameter", b.Name)
			}
			claim.Constants = append(claim.Constants, b)
		}
	}
	// weight
	switch {
	case g.linearLike && fp32Force, overwritten && q.Config.Target == "linear.default":
		// force_non_static_weights_for_f32_linear, or a quantised linear run as fp32: the
		// weight (and its dequantize chain) stays outside.
	case prec == configs.FP32:
		if !q.IsParam(w) {
			if configs.IsDequantize(w.Producer) {
				return claim, partition.Declinef(partition.NonConstantWeight, "weight %s is computed at run time (a dequantize node), not a parameter", w.Name)
			}
			return claim, partition.Declinef(partition.NonConstantWeight, "weight %s is computed at run time, not a parameter", w.Name)
		}
		claim.Constants = append(claim.Constants, w)
	default:
		dq := w.Producer
		claim.Nodes = append(claim.Nodes, dq)
		wq := dq.FirstTensorArg()
		if !q.IsParam(wq) {
			return claim, partition.Declinef(partition.NonConstantWeight, "quantised weight %s is computed at run time, not a parameter", dq.Name)
		}
		claim.Constants = append(claim.Constants, wq)
		if configs.IsPerTensor(dq) && prec == configs.DynamicQuant {
			return claim, partition.Declinef(partition.QuantPattern, "XNNPACK does not support per-tensor quantised weights for dynamically quantised activations")
		}
		if configs.IsPerChannel(dq) || configs.IsPerChannelGroup(dq) {
			s, z := configs.QParamArgs(dq)
			if s == nil || z == nil {
				return claim, partition.Declinef(partition.QuantPattern, "channel-quantised weight %s has no scale or zero-point tensor", dq.Name)
			}
			claim = claimValues(q, claim, s, z)
		}
	}
	// activation
	if prec != configs.FP32 {
		a := n.TensorArg(g.act)
		act := n
		if g.padAbsorb && a != nil && absorbablePad(q, n, a.Producer) {
			act = a.Producer
			a = act.FirstTensorArg()
			claim.Nodes = append(claim.Nodes, act)
		}
		if a == nil || !configs.IsDequantize(a.Producer) {
			return claim, partition.Declinef(partition.QuantPattern, "expected the activation input of %s to be a dequantize node", act.Name)
		}
		dq := a.Producer
		claim.Nodes = append(claim.Nodes, dq)
		if prec == configs.DynamicQuant {
			in := dq.FirstTensorArg()
			if in == nil || !configs.IsQuantize(in.Producer) {
				return claim, partition.Declinef(partition.QuantPattern, "expected the input of %s to be a quantize node", dq.Name)
			}
			qn := in.Producer
			claim.Nodes = append(claim.Nodes, qn)
			s, z := configs.QParamArgs(qn)
			if s == nil || z == nil || !configs.IsQParams(s.Producer) || s.Producer != z.Producer {
				return claim, partition.Declinef(partition.QuantPattern, "expected the parameters of %s to come from one choose_qparams node", qn.Name)
			}
			claim.Nodes = append(claim.Nodes, s.Producer)
		}
	}
	// output
	if len(n.Outputs) == 1 {
		out := q.SoleUser(n.Outputs[0])
		switch prec {
		case configs.StaticQuant:
			if out == nil {
				return claim, partition.Declinef(partition.QuantPattern, "a quantised %s needs a single user", configs.FormatTarget(n.Target))
			}
			if t := configs.FormatTarget(out.Target); t == "relu.default" || t == "hardtanh.default" {
				claim.Nodes = append(claim.Nodes, out)
				if next := q.SoleUser(out.Outputs[0]); next != nil {
					out = next
				}
			}
			if !configs.IsQuantize(out) {
				return claim, partition.Declinef(partition.QuantPattern, "expected the output of a quantised %s to be quantized", configs.FormatTarget(n.Target))
			}
			claim.Nodes = append(claim.Nodes, out)
		case configs.FP32:
			if out != nil {
				if t := configs.FormatTarget(out.Target); t == "relu.default" || t == "hardtanh.default" {
					claim.Nodes = append(claim.Nodes, out)
				}
			}
		}
	} else if prec == configs.StaticQuant {
		return claim, partition.Declinef(partition.QuantPattern, "a quantised %s needs a single output", configs.FormatTarget(n.Target))
	}
	return claim, nil
}

// claimValues adds a quantised weight's scale and zero-point tensors: parameters as constants,
// computed ones as their producing nodes.
func claimValues(q *configs.Query, claim partition.Claim, vs ...*ir.Value) partition.Claim {
	for _, v := range vs {
		switch {
		case q.IsParam(v):
			claim.Constants = append(claim.Constants, v)
		case v.Producer != nil:
			claim.Nodes = append(claim.Nodes, v.Producer)
		}
	}
	return claim
}

// absorbablePad is ConvolutionConfig._get_act_deps' rule: under quantisation a zero-valued,
// non-negative, spatial-only constant_pad_nd read only by a (non-transposed) convolution is
// taken with it, and its own input's dequantize becomes the activation's.
func absorbablePad(q *configs.Query, conv, pad *ir.Node) bool {
	if pad == nil || pad.Target != "aten.constant_pad_nd.default" || conv.BoolArg("transposed", false) || len(pad.Outputs) != 1 {
		return false
	}
	if len(q.Users(pad.Outputs[0])) != 1 {
		return false
	}
	w := conv.TensorArg("weight")
	convDim := w.Rank() - 2
	amounts := pad.IntsArg("pad", nil)
	spatial := func(k int) bool {
		if len(amounts) <= k {
			return true
		}
		for _, a := range amounts[k:] {
			if a != 0 {
				return false
			}
		}
		return true
	}
	spatialOnly := convDim == 1 && spatial(2) || convDim == 2 && spatial(4)
	if pad.ScalarArg("value", 0) != 0 || !spatialOnly {
		return false
	}
	for _, a := range amounts {
		if a < 0 {
			return false
		}
	}
	a := pad.FirstTensorArg()
	return a != nil && configs.IsDequantize(a.Producer)
}

func (p *preprocessor) visitLinear(n *ir.Node) error {
	in, w, b, out := n.TensorArg("input"), n.TensorArg("weight"), n.TensorArg("bias"), n.FirstOutput()
	if in == nil || w == nil {
		return fmt.Errorf("linear without input or weight")
	}
	// input, weight, bias, output: op_linear.py's order, which numbers the values
	for _, v := range []*ir.Value{in, w} {
		if err := p.define(v, tensorOpts{}); err != nil {
			return err
		}
	}
	if b != nil {
		bo, err := p.biasOpts(b, in, w)
		if err != nil {
			return err
		}
		// op_linear.py: XNNPACK's bf16 fully connected (bf16_bf16_f32) takes an fp32 bias.
		bo.fp32 = bo.fp32 || w.Meta.DType == ir.BFloat16
		if err := p.define(b, bo); err != nil {
			return err
		}
	}
	if err := p.define(out, tensorOpts{}); err != nil {
		return err
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
