package aot

import (
	"fmt"
	"strings"

	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
)

// Precision is one numeric regime a partitioner config can admit, numbered as ExecuTorch's
// ConfigPrecisionType.
type Precision uint8

const (
	// FP32 is any non-quantised float graph (fp32, fp16; bf16 when EnableBF16 is set).
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

// Partitioner is XNNPACK's admission policy: ExecuTorch's XnnpackPartitioner with all 52 of its
// configs, their constraints and the dependencies (weights, fused activations) each claims.
// The zero value is the default partitioner (every config, every precision it supports).
type Partitioner struct {
	// Precisions restricts every config to these precisions (nil: each config's own set). A
	// config that supports none of them declines every node, with PrecisionNotEnabled.
	Precisions []Precision
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
	var ops []string
	for _, c := range configs {
		if c.keepWhole != "" {
			ops = append(ops, c.keepWhole)
		}
	}
	keep := func(g *ir.Graph, n *ir.Node) bool {
		c, ok := configByTarget[formatTarget(n.Target)]
		if !ok {
			return false
		}
		return p.admit(newGraphFacts(g), c, n) == nil
	}
	return ops, keep
}

// Partition examines every node, claims those a config admits together with their
// dependencies, and groups the claims into cycle-free regions.
func (p *Partitioner) Partition(g *ir.Graph) (*partition.Result, error) {
	facts := newGraphFacts(g)
	res := &partition.Result{Declined: map[*ir.Node]partition.Decline{}}
	var claims []partition.Claim
	for _, n := range g.Nodes {
		if n.Target == partition.CallDelegate {
			res.Declined[n] = partition.Decline{Reason: partition.UnsupportedOperator, Detail: "an earlier partitioner's delegate"}
			continue
		}
		c, ok := configByTarget[formatTarget(n.Target)]
		if !ok {
			res.Declined[n] = partition.Decline{Reason: partition.UnsupportedOperator,
				Detail: fmt.Sprintf("XNNPACK has no partitioner config for %s", n.Target)}
			continue
		}
		if d := p.admit(facts, c, n); d != nil {
			res.Declined[n] = *d
			continue
		}
		claim := partition.Claim{Nodes: []*ir.Node{n}}
		if c.deps != nil {
			claim = c.deps(p, facts, n)
		}
		if len(claim.Nodes) == 0 {
			res.Declined[n] = partition.Decline{Reason: partition.UnsupportedOperator,
				Detail: fmt.Sprintf("%s only keeps %s whole through lowering; it claims nothing", c.name, n.Target)}
			continue
		}
		claims = append(claims, claim)
	}
	res.Regions = partition.GroupBased(g, claims, p.PerOp)
	return res, nil
}

// admit runs a config's checks on a node: precision enabled, the common constraints (unless the
// config opts out), then the config's own.
func (p *Partitioner) admit(f *graphFacts, c *config, n *ir.Node) *partition.Decline {
	if len(p.enabled(c)) == 0 {
		return decline(partition.PrecisionNotEnabled, "%s supports %v, none of which is enabled (%v)", c.name, c.precisions, p.Precisions)
	}
	if d := tooManyDims(n); d != nil {
		return d
	}
	if !c.noCommon {
		if d := p.commonConstraints(c, n); d != nil {
			return d
		}
	}
	if c.check != nil {
		return c.check(p, f, n)
	}
	return nil
}

// tooManyDims declines a node that reads or writes a tensor of more than six dims. Here etgo
// departs from ExecuTorch 1.5.1, whose partitioner admits such nodes (Swin3D's 8-d window
// partition, RAFT's 7-d correlation view, MViT v2's pooling reshapes) into blobs that both
// runtimes then refuse at load (xnn_status_unsupported_parameter): left to the portable
// kernels, the program runs.
func tooManyDims(n *ir.Node) *partition.Decline {
	check := func(v *ir.Value) *partition.Decline {
		if v != nil && v.Meta != nil && len(v.Meta.Sizes) > xnngraph.MaxDims {
			return decline(partition.Geometry, "%s has %d dims; XNNPACK tensors have at most %d", v.Name, len(v.Meta.Sizes), xnngraph.MaxDims)
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

// enabled is the intersection of the requested precisions with the config's.
func (p *Partitioner) enabled(c *config) []Precision {
	if p.Precisions == nil {
		return c.precisions
	}
	var out []Precision
	for _, want := range p.Precisions {
		for _, have := range c.precisions {
			if want == have {
				out = append(out, want)
			}
		}
	}
	return out
}

// commonConstraints is ExecuTorch's check_common_constraints: every positional tensor argument
// and every output is fp32 or fp16 (bf16 when enabled; int8 kinds only on q/dq ops), inputs share
// one dtype, no argument is a symbolic size, and no tensor is empty or has unbacked dims.
func (p *Partitioner) commonConstraints(c *config, n *ir.Node) *partition.Decline {
	valid := func(dt ir.DType) bool {
		switch dt {
		case ir.Float32, ir.Float16:
			return true
		case ir.BFloat16:
			return p.EnableBF16
		case ir.Int8, ir.Uint8, ir.Int32:
			return c.quantOp
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
					return decline(partition.DynamicShape, "argument %s is the symbolic size %s", a.Name, v.Name)
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
				return decline(partition.DynamicShape, "argument %s (%s) is not a tensor", a.Name, v.Name)
			}
			if d := shapeProblem(v); d != nil {
				return d
			}
			if !valid(v.Meta.DType) {
				return decline(partition.UnsupportedDType, "input %s is %s; XNNPACK takes float32 and float16", v.Name, v.Meta.DType)
			}
			if ref == nil {
				ref = v
			} else if v.Meta.DType != ref.Meta.DType {
				return decline(partition.UnsupportedDType, "inputs mix dtypes: %s is %s, %s is %s", ref.Name, ref.Meta.DType, v.Name, v.Meta.DType)
			}
		}
	}
	for _, v := range n.Outputs {
		if v == nil {
			continue
		}
		if v.Kind != ir.TensorValue || v.Meta == nil {
			return decline(partition.UnsupportedDType, "output %s is not a tensor", v.Name)
		}
		if !valid(v.Meta.DType) {
			return decline(partition.UnsupportedDType, "output %s is %s; XNNPACK takes float32 and float16", v.Name, v.Meta.DType)
		}
	}
	return nil
}

// shapeProblem declines empty tensors and tensors with unbacked (data-dependent) dims; backed
// symbolic dims are allowed by the common check.
func shapeProblem(v *ir.Value) *partition.Decline {
	for _, d := range v.Meta.Sizes {
		if d.IsStatic() && d.Size == 0 {
			return decline(partition.EmptyTensor, "%s has no elements (%s)", v.Name, v.Meta)
		}
		if isUnbacked(d.Symbol) {
			return decline(partition.DynamicShape, "%s has the data-dependent dim %s", v.Name, d.Symbol)
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

func decline(r partition.Reason, format string, args ...any) *partition.Decline {
	return &partition.Decline{Reason: r, Detail: fmt.Sprintf(format, args...)}
}

// formatTarget is ExecuTorch's format_target_name: the namespace is dropped when the name has
// more than two parts, so "aten.convolution.default" matches the config "convolution.default".
func formatTarget(target string) string {
	parts := strings.Split(target, ".")
	if len(parts) > 2 {
		return strings.Join(parts[1:], ".")
	}
	return target
}

// graphFacts is what configs ask of the graph: which values are static constants, and who uses
// each value.
type graphFacts struct {
	g      *ir.Graph
	consts map[*ir.Value]bool
	users  map[*ir.Value][]*ir.Node
}

func newGraphFacts(g *ir.Graph) *graphFacts {
	f := &graphFacts{g: g, consts: map[*ir.Value]bool{}, users: g.Users()}
	for _, in := range g.Inputs {
		switch in.Kind {
		case ir.Parameter, ir.Buffer, ir.TensorConstant:
			f.consts[in.Value] = true
		}
	}
	return f
}

// isParam is ExecuTorch's is_param_node: a parameter, buffer or lifted constant.
func (f *graphFacts) isParam(v *ir.Value) bool { return v != nil && f.consts[v] }

// bnFacts are the graph's facts the batch-norm rules ask for.
func (f *graphFacts) bnFacts() bnFacts {
	return bnFacts{isParam: f.isParam, read: func(v *ir.Value) bool { return len(f.users[v]) > 0 || f.g.IsGraphOutput(v) }}
}

// soleUser returns the only node using v, or nil.
func (f *graphFacts) soleUser(v *ir.Value) *ir.Node {
	if v == nil || len(f.users[v]) != 1 || f.g.IsGraphOutput(v) {
		return nil
	}
	return f.users[v][0]
}

// firstInput is the node's first tensor argument.
func firstInput(n *ir.Node) *ir.Value {
	for _, a := range n.Args {
		if a.Kind == ir.ArgTensor && len(a.Values) == 1 && a.Values[0] != nil {
			return a.Values[0]
		}
	}
	return nil
}

// tensorInputs lists a node's distinct tensor arguments in order (fx's all_input_nodes).
func tensorInputs(n *ir.Node) []*ir.Value {
	var out []*ir.Value
	seen := map[*ir.Value]bool{}
	for _, a := range n.Args {
		for _, v := range a.Values {
			if v != nil && v.Kind == ir.TensorValue && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out
}

func rank(v *ir.Value) int {
	if v == nil || v.Meta == nil {
		return -1
	}
	return len(v.Meta.Sizes)
}
