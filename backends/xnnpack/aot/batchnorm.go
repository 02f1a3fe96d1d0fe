package aot

import (
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
)

// The batch-norm rules, shared by the partitioner (which claims a batch norm only if preprocess
// will fold or decompose it) and preprocess (which does), so the two cannot drift: ExecuTorch's
// BatchNormConfig asks FuseBatchNormPass.can_fuse and DecomposeBatchNorm.can_decompose_batch_norm,
// the very functions its passes then apply.

// bnFacts is what the rules ask of the graph they run on, which the partitioner
// (configs.Facts) and preprocess know in their own ways.
type bnFacts interface {
	IsParam(*ir.Value) bool // a parameter, buffer or lifted constant (is_param_node)
	Read(*ir.Value) bool    // a node or the graph's outputs read the value
}

// onlyOutputRead is the "every user is getitem[0]" rule: the saved statistics (outputs 1 and 2)
// are not read.
func onlyOutputRead(bn *ir.Node, f bnFacts) bool {
	for i, v := range bn.Outputs {
		if i > 0 && v != nil && f.Read(v) {
			return false
		}
	}
	return true
}

// canFuseBatchNorm is FuseBatchNormPass.can_fuse: prev is a convolution (of a rank 3 or 4 input)
// or a linear, only bn's output is read, and both weights are parameters. It also asks that the
// other values the fusion reads (bn's bias and statistics, prev's bias) be parameters:
// ExecuTorch's can_fuse does not check them and its _fuse_ops then fails on a computed one; etgo
// does not fuse such a batch norm (and the partitioner declines it, by decomposeDecline).
func canFuseBatchNorm(prev, bn *ir.Node, f bnFacts) bool {
	if prev == nil || (prev.Target != targetConv && prev.Target != targetLinear) || !onlyOutputRead(bn, f) {
		return false
	}
	if !f.IsParam(prev.TensorArg("weight")) || !f.IsParam(bn.TensorArg("weight")) {
		return false
	}
	for _, name := range []string{"bias", "running_mean", "running_var"} {
		if v := bn.TensorArg(name); (v == nil && name != "bias") || (v != nil && !f.IsParam(v)) {
			return false
		}
	}
	if b := prev.TensorArg("bias"); b != nil && !f.IsParam(b) {
		return false
	}
	if prev.Target == targetConv {
		if r := prev.TensorArg("input").Rank(); r != 3 && r != 4 {
			return false
		}
	}
	return true
}

// decomposeDecline is DecomposeBatchNorm.can_decompose_batch_norm with its reason: nil when the
// batch norm can become a 1×1 depthwise convolution (an input of rank 2 to 4 with a static
// channel count, only the output read, parameters for the affine weights and the statistics, a
// constant eps).
func decomposeDecline(bn *ir.Node, f bnFacts) *partition.Decline {
	in := bn.TensorArg("input")
	if r := in.Rank(); r < 2 || r > 4 {
		return partition.Declinef(partition.Geometry, "batch norm input of rank %d; XNNPACK takes rank 2 to 4", r)
	}
	if !onlyOutputRead(bn, f) {
		return partition.Declinef(partition.Geometry, "batch norm's saved statistics are used; XNNPACK only produces its output")
	}
	if !in.Meta.Sizes[1].IsStatic() {
		return partition.Declinef(partition.DynamicShape, "batch norm channel dim is the symbol %s", in.Meta.Sizes[1].Symbol)
	}
	for _, name := range []string{"weight", "bias", "running_mean", "running_var"} {
		v := bn.TensorArg(name)
		if v == nil && (name == "weight" || name == "bias") {
			continue
		}
		if !f.IsParam(v) {
			return partition.Declinef(partition.NonConstantWeight, "batch norm %s is computed at run time, not a parameter", name)
		}
	}
	if a := bn.Arg("eps"); a != nil && a.Kind != ir.ArgFloat && a.Kind != ir.ArgInt {
		return partition.Declinef(partition.DynamicShape, "batch norm eps is not a constant")
	}
	return nil
}
