package aot

import (
	"github.com/etgo/etgo/backends/transforms"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// The batch-norm family (BatchNormConfig of node_configs.py). It has no visitor: the preprocess
// folds an admitted batch norm into the convolution or linear before it (FuseBatchNormPass) or
// makes it a depthwise convolution (DecomposeBatchNorm) before visiting, by the same rule the
// config admits it with (package transforms).
func init() {
	register(family{
		name: "batch norm",
		configs: func(*Partitioner) []*configs.Config {
			return []*configs.Config{{Name: "BatchNormConfig", Target: "_native_batch_norm_legit_no_training.default", Precisions: fOnly,
				Check: checkBatchNorm, Claim: batchNormDeps}}
		},
	})
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
