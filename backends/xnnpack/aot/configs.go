package aot

import (
	"github.com/etgo/etgo/backends/transforms"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// legacyConfigs are the configs of the families not yet registered (registry.go), while they
// move to their files.
func (p *Partitioner) legacyConfigs() []*configs.Config {
	return []*configs.Config{
		{Name: "BatchNormConfig", Target: "_native_batch_norm_legit_no_training.default", Precisions: fOnly, Check: checkBatchNorm, Claim: batchNormDeps},
		keep(generic("UpsampleBilinear2dConfig", "upsample_bilinear2d.vec", fOnly, checkUpsample), "aten.upsample_bilinear2d.vec"),
		{Name: "QuantizedPerTensorConfig", Target: "quantize_per_tensor.default", Precisions: []configs.Precision{configs.StaticQuant}, QuantOp: true, Claim: configs.NodeOnly},
		{Name: "DeQuantizedPerTensorConfig", Target: "dequantize_per_tensor.default", Precisions: []configs.Precision{configs.StaticQuant}, QuantOp: true, Claim: configs.NodeOnly},
		affine("QuantizeAffineConfig", "quantize_affine.default", "torchao.quantize_affine.default"),
		affine("DeQuantizeAffineConfig", "dequantize_affine.default", "torchao.dequantize_affine.default"),
		affine("ChooseQParamsAffineConfig", "choose_qparams_affine.default", "torchao.choose_qparams_affine.default"),
	}
}

// affine configs exist only to keep torchao's affine quantisation ops whole; they claim nothing.
func affine(name, target, aten string) *configs.Config {
	return &configs.Config{Name: name, Target: target, Precisions: []configs.Precision{configs.DynamicQuant}, KeepWhole: aten,
		SkipCommon: true, QuantOp: true, Claim: configs.Nothing}
}

// checkBatchNorm admits a batch norm XNNPACK can fold into the conv or linear before it, or turn
// into a 1×1 depthwise convolution, by the rules the rewrites apply (package transforms).
func checkBatchNorm(q *configs.Query, n *ir.Node) *partition.Decline {
	if !q.OnlyFirstOutputRead(n) {
		return partition.Declinef(partition.Geometry, "batch norm's saved statistics are used; XNNPACK only produces its output")
	}
	if in := n.TensorArg("input"); in != nil && transforms.CanFuseBatchNorm(in.Producer, n, q) {
		return nil
	}
	return transforms.DecomposeBatchNormDecline(n, q)
}

// batchNormDeps claims the statistics and affine parameters with the node.
func batchNormDeps(q *configs.Query, n *ir.Node) partition.Claim {
	claim := partition.Claim{Nodes: []*ir.Node{n}}
	for _, v := range n.TensorInputs()[1:] {
		if q.IsParam(v) {
			claim.Constants = append(claim.Constants, v)
		} else if v.Producer != nil {
			claim.Nodes = append(claim.Nodes, v.Producer)
		}
	}
	return claim
}

func checkUpsample(_ *configs.Query, n *ir.Node) *partition.Decline {
	if len(n.Outputs) > 0 && n.Outputs[0] != nil && n.Outputs[0].Meta != nil && !n.Outputs[0].Meta.IsStatic() {
		return partition.Declinef(partition.DynamicShape, "bilinear upsampling to the dynamic size %s", n.Outputs[0].Meta)
	}
	return nil
}
