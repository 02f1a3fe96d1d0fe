package configs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
)

// Precision is one numeric regime a config can admit, numbered as ExecuTorch's
// ConfigPrecisionType.
type Precision uint8

const (
	// FP32 is any non-quantised float graph.
	FP32 Precision = 1
	// StaticQuant is PT2E static quantisation: dq → op → q.
	StaticQuant Precision = 2
	// DynamicQuant is dynamically quantised activations with statically quantised weights.
	DynamicQuant Precision = 3
)

func (p Precision) String() string {
	switch p {
	case FP32:
		return "fp32"
	case StaticQuant:
		return "static-quant"
	case DynamicQuant:
		return "dynamic-quant"
	}
	return fmt.Sprintf("precision(%d)", uint8(p))
}

// Config is one rule of a backend's admission policy (ExecuTorch's PartitionerConfig).
type Config struct {
	// Name is ExecuTorch's class name ("ConvolutionConfig"), for reports.
	Name string
	// Target is the Edge operator the config matches, as FormatTarget writes it:
	// "convolution.default".
	Target string
	// Precisions are the regimes the config supports (never empty).
	Precisions []Precision
	// KeepWhole is the ATen operator the config keeps whole through the Edge conversion
	// ("aten.linear.default"; get_original_aten), "" for none. A node of it is kept only when
	// the config would admit it.
	KeepWhole string
	// SkipCommon exempts the config from the backend's common constraints (Options.Common),
	// for operators those constraints do not describe.
	SkipCommon bool
	// QuantOp marks a quantize, dequantize or choose-qparams operator, whose integer tensors
	// the backend's common constraints may accept where they take only floats elsewhere.
	QuantOp bool
	// FusedActivations are the activations (formatted targets) a static-quantisation claim
	// takes between the node and its quantize (NodeAndQuantDeps).
	FusedActivations []string
	// Check is the config's own constraints beyond the common ones (nil: none).
	Check func(q *Query, n *ir.Node) *partition.Decline
	// Claim returns what an admitted node is claimed with (get_node_and_deps); nil means
	// NodeAndQuantDeps. A claim without nodes declines the node: the config only keeps its
	// operator whole.
	Claim func(q *Query, n *ir.Node) partition.Claim
}

// Query is what a config's Check and Claim are given besides the node: the graph's facts, the
// config, and the precisions the partitioner enables for it (never empty).
type Query struct {
	*Facts
	Config  *Config
	Enabled []Precision
}

// Enables reports whether the partitioner enables precision p for the config.
func (q *Query) Enables(p Precision) bool { return slices.Contains(q.Enabled, p) }

// NodeOnly claims the node alone, whatever the precision.
func NodeOnly(_ *Query, n *ir.Node) partition.Claim { return partition.Claim{Nodes: []*ir.Node{n}} }

// Nothing claims nothing: the config exists only to keep its operator whole.
func Nothing(*Query, *ir.Node) partition.Claim { return partition.Claim{} }

// NodeAndQuantDeps is the claim of a node with no dependencies of its own (ExecuTorch's
// GenericNodePartitionerConfig): the node alone, or, with static quantisation enabled and the
// node between dequantize inputs and a quantize output (through one of the config's fused
// activations), the whole q/dq island, so the quantised operator is delegated with the
// conversions around it.
func NodeAndQuantDeps(q *Query, n *ir.Node) partition.Claim {
	claim := partition.Claim{Nodes: []*ir.Node{n}}
	if !q.Enables(StaticQuant) {
		return claim
	}
	var island []*ir.Node
	for _, v := range n.TensorInputs() {
		if v.Producer == nil || !IsDequantize(v.Producer) {
			return claim
		}
		island = append(island, v.Producer)
	}
	if len(n.Outputs) != 1 {
		return claim
	}
	out := q.SoleUser(n.Outputs[0])
	if out != nil && slices.Contains(q.Config.FusedActivations, FormatTarget(out.Target)) && len(out.Outputs) == 1 {
		island = append(island, out)
		if next := q.SoleUser(out.Outputs[0]); next != nil {
			out = next
		}
	}
	if out == nil || !IsQuantize(out) {
		return claim
	}
	claim.Nodes = append(claim.Nodes, append(island, out)...)
	return claim
}

// FormatTarget is ExecuTorch's format_target_name: the namespace is dropped when the name has
// more than two parts, so "aten.convolution.default" matches the config "convolution.default".
func FormatTarget(target string) string {
	parts := strings.Split(target, ".")
	if len(parts) > 2 {
		return strings.Join(parts[1:], ".")
	}
	return target
}
