package aot

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/etgo/etgo/backends/vulkan/vkgraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// Options are the VulkanPartitioner's compile options and operator lists that change what it
// claims (ExecuTorch 1.5.1's names in parentheses).
type Options struct {
	// TextureLimits are the largest 3D image the target GPU takes (texture_limits); nil means
	// SmallTextureLimits when SmallTextureLimits is set, else DefaultTextureLimits.
	TextureLimits      *Extents
	SmallTextureLimits bool // (small_texture_limits)
	// RequireDynamicShapes declines operators that cannot be resized (require_dynamic_shapes).
	RequireDynamicShapes bool
	// SkipBoolTensors declines operators with a bool tensor (skip_bool_tensors).
	SkipBoolTensors bool
	// OperatorBlocklist and OperatorAllowlist name Edge operators ("aten.add.Tensor"); a nil
	// allowlist allows every operator.
	OperatorBlocklist []string
	OperatorAllowlist []string
	// PerOp makes every claimed node its own delegate.
	PerOp bool
}

// Partitioner is ExecuTorch's VulkanPartitioner: a node is claimed when the Vulkan backend has
// an implementation of its operator whose dtypes, arguments, rank and tensor representations
// (buffer or 3D texture layouts, within the texture limits) fit it; claimed nodes are grouped
// as its CapabilityBasedPartitioner groups them, and a parameter goes into a delegate when every
// node reading it is in that delegate (tag_constant_data).
type Partitioner struct {
	o Options
}

var _ partition.Partitioner = (*Partitioner)(nil)

// New returns the partitioner with options o.
func New(o Options) *Partitioner { return &Partitioner{o: o} }

// Spec is VulkanBackend with the compile specs the options make (parse_compile_options).
func (p *Partitioner) Spec() partition.DelegationSpec {
	var specs []partition.CompileSpec
	le := binary.LittleEndian
	if p.o.TextureLimits != nil {
		for i, axis := range []string{"x", "y", "z"} {
			specs = append(specs, partition.CompileSpec{Key: "texture_limits_" + axis, Value: le.AppendUint32(nil, uint32(p.o.TextureLimits[i]))})
		}
	}
	for _, b := range []struct {
		key string
		on  bool
	}{{"small_texture_limits", p.o.SmallTextureLimits}, {"require_dynamic_shapes", p.o.RequireDynamicShapes}, {"skip_bool_tensors", p.o.SkipBoolTensors}} {
		if b.on {
			specs = append(specs, partition.CompileSpec{Key: b.key, Value: []byte{1}})
		}
	}
	return partition.DelegationSpec{BackendID: vkgraph.BackendID, CompileSpecs: specs}
}

// opsNotToDecompose are the ATen operators the Vulkan backend implements whole
// (ops_not_to_decompose), kept for every node.
var opsNotToDecompose = []string{"aten.hardswish.default", "aten.upsample_nearest2d.vec", "aten.pixel_shuffle.default"}

// OpsToNotDecompose keeps hardswish, nearest upsampling and pixel shuffle whole, every node of
// them (the official filter accepts all).
func (p *Partitioner) OpsToNotDecompose() ([]string, func(*ir.Graph, *ir.Node) bool) {
	return slices.Clone(opsNotToDecompose), func(*ir.Graph, *ir.Node) bool { return true }
}

func (p *Partitioner) limits() Extents {
	switch {
	case p.o.TextureLimits != nil:
		return *p.o.TextureLimits
	case p.o.SmallTextureLimits:
		return SmallTextureLimits
	}
	return DefaultTextureLimits
}

// Partition claims every supported node with the parameters it reads and groups the claims.
func (p *Partitioner) Partition(g *ir.Graph) (*partition.Result, error) {
	facts := configs.NewFacts(g)
	res := &partition.Result{Declined: map[*ir.Node]partition.Decline{}}
	var claims []partition.Claim
	for _, n := range g.Nodes {
		if n.Target == partition.CallDelegate {
			res.Declined[n] = partition.Decline{Reason: partition.UnsupportedOperator, Detail: "an earlier partitioner's delegate"}
			continue
		}
		if d := p.admit(facts, n); d != nil {
			res.Declined[n] = *d
			continue
		}
		c := partition.Claim{Nodes: []*ir.Node{n}}
		for _, v := range n.TensorInputs() {
			if facts.IsParam(v) {
				c.Constants = append(c.Constants, v)
			}
		}
		claims = append(claims, c)
	}
	res.Regions = partition.GroupBased(g, claims, p.o.PerOp)
	// tag_constant_data: a parameter is the delegate's only when all its readers are in it;
	// otherwise the delegate reads it as an input.
	for i := range res.Regions {
		r := &res.Regions[i]
		in := map[*ir.Node]bool{}
		for _, n := range r.Nodes {
			in[n] = true
		}
		r.Constants = slices.DeleteFunc(r.Constants, func(v *ir.Value) bool {
			if g.IsGraphOutput(v) {
				return true
			}
			for _, u := range facts.Users(v) {
				if !in[u] {
					return true
				}
			}
			return false
		})
	}
	return res, nil
}

// isTensorNode: the node produces a tensor or a list of tensors (utils.is_tensor_node).
func isTensorNode(n *ir.Node) bool {
	any := false
	for _, v := range n.Outputs {
		if v == nil {
			continue
		}
		if v.Kind != ir.TensorValue || v.Meta == nil {
			return false
		}
		any = true
	}
	return any
}

func tensorOutputs(n *ir.Node) []*ir.TensorMeta {
	var out []*ir.TensorMeta
	for _, v := range n.Outputs {
		if v != nil && v.Meta != nil {
			out = append(out, v.Meta)
		}
	}
	return out
}

// admit is VulkanSupportedOperators._is_node_supported; nil admits.
func (p *Partitioner) admit(f *configs.Facts, n *ir.Node) *partition.Decline {
	if isTensorNode(n) {
		if d := ioDTypes(n); d != nil {
			return d
		}
	}
	if users := f.Users(n.FirstOutput()); (n.Target == "aten.t_copy.default" || n.Target == "aten.permute_copy.default") &&
		len(users) == 1 && !f.Graph.IsGraphOutput(n.FirstOutput()) && len(n.Outputs) == 1 {
		if u := users[0]; u.Target == "aten.mm.default" || u.Target == "aten.addmm.default" {
			if d := p.compatible(u, registry[u.Target]); d != nil {
				return partition.Declinef(partition.UnsupportedOperator, "the %s reading it is not Vulkan-compatible (%s); left to fuse into another backend's linear", u.Target, d.Detail)
			}
			return nil
		}
	}
	feat := registry[n.Target]
	if feat == nil {
		return partition.Declinef(partition.UnsupportedOperator, "the Vulkan backend has no implementation of %s", n.Target)
	}
	if d := checkDTypes(n, feat); d != nil {
		return d
	}
	if feat.inputsOK != nil && !feat.inputsOK(n) {
		return partition.Declinef(partition.Geometry, "the Vulkan %s does not support these arguments", n.Target)
	}
	if !feat.highDim && highDim(n) {
		return partition.Declinef(partition.Geometry, "the Vulkan %s takes tensors of at most 4 dims", n.Target)
	}
	if p.o.RequireDynamicShapes && !feat.resize {
		return partition.Declinef(partition.DynamicShape, "the Vulkan %s cannot be resized (require_dynamic_shapes)", n.Target)
	}
	return p.compatible(n, feat)
}

// compatible is node_is_compatible: the operator lists, bool tensors and the tensors'
// representations; a node producing no tensor only needs the operator registered.
func (p *Partitioner) compatible(n *ir.Node, feat *features) *partition.Decline {
	if !isTensorNode(n) {
		if feat == nil {
			return partition.Declinef(partition.UnsupportedOperator, "the Vulkan backend has no implementation of %s", n.Target)
		}
		return nil
	}
	if p.o.OperatorAllowlist != nil && !slices.Contains(p.o.OperatorAllowlist, n.Target) {
		return partition.Declinef(partition.UnsupportedOperator, "%s is not in the operator allowlist", n.Target)
	}
	if slices.Contains(p.o.OperatorBlocklist, n.Target) {
		return partition.Declinef(partition.UnsupportedOperator, "%s is in the operator blocklist", n.Target)
	}
	if feat == nil {
		return partition.Declinef(partition.UnsupportedOperator, "the Vulkan backend has no implementation of %s", n.Target)
	}
	if p.o.SkipBoolTensors && hasTensor(n, func(m *ir.TensorMeta) bool { return m.DType == ir.Bool }) {
		return partition.Declinef(partition.UnsupportedDType, "%s has a bool tensor (skip_bool_tensors)", n.Target)
	}
	ins, outs := feat.storage(n)
	if opRepSetsEmpty(n, ins, outs, p.limits()) {
		return partition.Declinef(partition.Geometry, "no buffer or texture representation of %s's tensors fits the Vulkan implementation and the texture limits %v", n.Target, p.limits())
	}
	return nil
}

// hasTensor reports whether an output or a single-tensor positional argument satisfies pred.
func hasTensor(n *ir.Node, pred func(*ir.TensorMeta) bool) bool {
	if slices.ContainsFunc(tensorOutputs(n), pred) {
		return true
	}
	for _, a := range positional(n) {
		if len(a.tensors) == 1 && posIsSingle(a) && pred(a.tensors[0]) {
			return true
		}
	}
	return false
}

// posIsSingle: FX counts only a node argument, not a list, as a tensor argument here.
func posIsSingle(a opArg) bool { return !a.list }

func highDim(n *ir.Node) bool {
	return hasTensor(n, func(m *ir.TensorMeta) bool { return len(m.Sizes) > 4 })
}

// ioDTypes is io_dtypes_are_supported: every tensor in and out has a dtype Vulkan has.
func ioDTypes(n *ir.Node) *partition.Decline {
	for _, m := range tensorOutputs(n) {
		if !vulkanDTypes.has(m.DType) {
			return partition.Declinef(partition.UnsupportedDType, "Vulkan has no %s tensors", m.DType)
		}
	}
	for _, a := range positional(n) {
		for _, m := range a.tensors {
			if !vulkanDTypes.has(m.DType) {
				return partition.Declinef(partition.UnsupportedDType, "Vulkan has no %s tensors", m.DType)
			}
		}
	}
	return nil
}

// checkDTypes is check_node_dtypes: each positional tensor (or list item) and each output in
// the operator's dtype set for its position.
func checkDTypes(n *ir.Node, feat *features) *partition.Decline {
	ins := feat.inputDTypes()
	for i, a := range positional(n) {
		allowed := dtypeAt(ins, i)
		if allowed == 0 {
			continue
		}
		for j, m := range a.tensors {
			if !allowed.has(m.DType) {
				return partition.Declinef(partition.UnsupportedDType, "input %d%s is %s, which the Vulkan %s does not take", i, item(a, j), m.DType, n.Target)
			}
		}
	}
	outs := feat.outputDTypes()
	single := len(n.Outputs) == 1 && !n.ListOutput
	for i, v := range n.Outputs {
		if v == nil || v.Meta == nil {
			continue
		}
		allowed := dtypeAt(outs, i)
		if single {
			allowed = dtypeAt(outs, 0)
		}
		if allowed != 0 && !allowed.has(v.Meta.DType) {
			return partition.Declinef(partition.UnsupportedDType, "output %d is %s, which the Vulkan %s does not produce", i, v.Meta.DType, n.Target)
		}
	}
	return nil
}

func item(a opArg, j int) string {
	if !a.list {
		return ""
	}
	return fmt.Sprintf("[%d]", j)
}
