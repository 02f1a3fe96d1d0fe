package aot

import (
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// Partitioner is XNNPACK's admission policy: ExecuTorch's XnnpackPartitioner with all 52 of its
// configs, their constraints and the dependencies (weights, fused activations) each claims.
// The zero value is the default partitioner (every config, every precision it supports).
type Partitioner struct {
	// Precisions restricts every config to these precisions (nil: each config's own set). A
	// config that supports none of them declines every node, with PrecisionNotEnabled.
	Precisions []configs.Precision
	// PerOp makes every claimed node (with its dependencies) its own delegate.
	PerOp bool
	// ForceNonStaticWeightsForF32Linear leaves fp32 linear/addmm/mm weights and biases outside
	// the delegate (runtime inputs), so weights shared across regions are not duplicated.
	ForceNonStaticWeightsForF32Linear bool
	// EnableBF16 admits bfloat16 tensors.
	EnableBF16 bool
}

var _ partition.Partitioner = (*Partitioner)(nil)

// Spec names the backend; XNNPACK takes no compile specs.
func (p *Partitioner) Spec() partition.DelegationSpec {
	return partition.DelegationSpec{BackendID: xnngraph.BackendID}
}

// OpsToNotDecompose lists the ATen operators XNNPACK wants kept whole through the lowering to
// Edge (linear, max_pool2d, upsample_bilinear2d.vec, hardswish, prelu and the torchao affine
// quantisation ops); a node is kept only when its config would admit it.
func (p *Partitioner) OpsToNotDecompose() ([]string, func(*ir.Graph, *ir.Node) bool) {
	return p.configBased().OpsToNotDecompose()
}

// Partition examines every node, claims those a config admits together with their
// dependencies, and groups the claims into cycle-free regions.
func (p *Partitioner) Partition(g *ir.Graph) (*partition.Result, error) {
	return p.configBased().Partition(g)
}

// configBased is the configuration-based partitioner of p's options, made afresh for each use
// as p's exported fields may change between uses.
func (p *Partitioner) configBased() *configs.Partitioner {
	return configs.New(p.Spec(), p.partitionerConfigs(), configs.Options{
		Backend: "XNNPACK", Precisions: p.Precisions, PerOp: p.PerOp, Limits: tooManyDims, Common: p.commonConstraints,
	})
}

// tooManyDims declines a node that reads or writes a tensor of more than six dims. Here etgo
// departs from ExecuTorch 1.5.1, whose partitioner admits such nodes (Swin3D's 8-d window
// partition, RAFT's 7-d correlation view, MViT v2's pooling reshapes) into blobs that both
// runtimes then refuse at load (xnn_status_unsupported_parameter): left to the portable
// kernels, the program runs.
func tooManyDims(n *ir.Node) *partition.Decline {
	check := func(v *ir.Value) *partition.Decline {
		if v != nil && v.Meta != nil && len(v.Meta.Sizes) > xnngraph.MaxDims {
			return partition.Declinef(partition.Geometry, "%s has %d dims; XNNPACK tensors have at most %d", v.Name, len(v.Meta.Sizes), xnngraph.MaxDims)
		}
		return nil
	}
	for _, a := range n.Args {
		for _, v := range a.Values {
			if d := check(v); d != nil {
				return d
			}
		}
	}
	for _, v := range n.Outputs {
		if d := check(v); d != nil {
			return d
		}
	}
	return nil
}

// commonConstraints is ExecuTorch's check_common_constraints: every positional tensor argument
// and every output is fp32 or fp16 (bf16 when enabled; int8 kinds only on q/dq ops), inputs share
// one dtype, no argument is a symbolic size, and no tensor is empty or has unbacked dims.
func (p *Partitioner) commonConstraints(c *configs.Config, n *ir.Node) *partition.Decline {
	valid := func(dt ir.DType) bool {
		switch dt {
		case ir.Float32, ir.Float16:
			return true
		case ir.BFloat16:
			return p.EnableBF16
		case ir.Int8, ir.Uint8, ir.Int32:
			return c.QuantOp
		}
		return false
	}
	var ref *ir.Value
	for _, a := range n.Args {
		if a.KwargOnly {
			continue // ExecuTorch checks node.args only
		}
		switch a.Kind {
		case ir.ArgSymInt, ir.ArgSymInts:
			for _, v := range a.Values {
				if v != nil {
					return partition.Declinef(partition.DynamicShape, "argument %s is the symbolic size %s", a.Name, v.Name)
				}
			}
			continue
		case ir.ArgTensor, ir.ArgTensors, ir.ArgOptionalTensors:
		default:
			continue
		}
		for _, v := range a.Values {
			if v == nil {
				continue
			}
			if v.Kind != ir.TensorValue || v.Meta == nil {
				return partition.Declinef(partition.DynamicShape, "argument %s (%s) is not a tensor", a.Name, v.Name)
			}
			if d := shapeProblem(v); d != nil {
				return d
			}
			if !valid(v.Meta.DType) {
				return partition.Declinef(partition.UnsupportedDType, "input %s is %s; XNNPACK takes float32 and float16", v.Name, v.Meta.DType)
			}
			if ref == nil {
				ref = v
			} else if v.Meta.DType != ref.Meta.DType {
				return partition.Declinef(partition.UnsupportedDType, "inputs mix dtypes: %s is %s, %s is %s", ref.Name, ref.Meta.DType, v.Name, v.Meta.DType)
			}
		}
	}
	for _, v := range n.Outputs {
		if v == nil {
			continue
		}
		if v.Kind != ir.TensorValue || v.Meta == nil {
			return partition.Declinef(partition.UnsupportedDType, "output %s is not a tensor", v.Name)
		}
		if !valid(v.Meta.DType) {
			return partition.Declinef(partition.UnsupportedDType, "output %s is %s; XNNPACK takes float32 and float16", v.Name, v.Meta.DType)
		}
	}
	return nil
}

// shapeProblem declines empty tensors and tensors with unbacked (data-dependent) dims; backed
// symbolic dims are allowed by the common check.
func shapeProblem(v *ir.Value) *partition.Decline {
	for _, d := range v.Meta.Sizes {
		if d.IsStatic() && d.Size == 0 {
			return partition.Declinef(partition.EmptyTensor, "%s has no elements (%s)", v.Name, v.Meta)
		}
		if isUnbacked(d.Symbol) {
			return partition.Declinef(partition.DynamicShape, "%s has the data-dependent dim %s", v.Name, d.Symbol)
		}
	}
	return nil
}

// isUnbacked reports torch's unbacked symbols (u0, u1, …), whose value depends on tensor data.
func isUnbacked(sym string) bool {
	if len(sym) < 2 || sym[0] != 'u' {
		return false
	}
	for _, r := range sym[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
