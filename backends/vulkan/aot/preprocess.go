package aot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/etgo/etgo/backends/transforms"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
	"github.com/etgo/etgo/pte"
)

// ErrUnsupported is wrapped by every refusal of Preprocess: the region needs a part of the
// official preprocess etgo does not have yet (the error names the node and the part). etgo
// refuses rather than write a blob that could differ from the official one.
var ErrUnsupported = errors.New("vulkan preprocess: not supported by etgo yet")

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

// Processed is one region compiled for VulkanBackend.
type Processed struct {
	Blob      []byte
	NamedData []pte.NamedBlob
	Passes    []passes.Report
}

// PreprocessDelegate is Backend's Preprocess: the delegate's region as a program of its own,
// compiled with the compile specs the partitioner gave it.
func PreprocessDelegate(parent *ir.Graph, d *partition.Delegate) ([]byte, []pte.NamedBlob, error) {
	if d == nil || d.Call == nil {
		return nil, nil, errors.New("vulkan: preprocess: no delegate")
	}
	prog, err := d.Program(parent)
	if err != nil {
		return nil, nil, err
	}
	o, err := compileOptions(d.Spec.CompileSpecs)
	if err != nil {
		return nil, nil, fmt.Errorf("delegate %s: %w", d.Call.Name, err)
	}
	p, err := Preprocess(prog, o)
	if err != nil {
		return nil, nil, fmt.Errorf("delegate %s: %w", d.Call.Name, err)
	}
	return p.Blob, p.NamedData, nil
}

// PreprocessOptions are the compile options preprocess reads (parse_compile_spec).
type PreprocessOptions struct {
	TextureLimits Extents
}

// compileOptions reads the compile specs as parse_compile_spec does. Options that change the
// graph in ways etgo does not reproduce (storage or layout overrides, skipping the memory
// metadata pass or memory planning, fp16, no 64-bit downcast, aliased buffer mutations,
// external constants) are refused by name.
func compileOptions(specs []partition.CompileSpec) (PreprocessOptions, error) {
	o := PreprocessOptions{TextureLimits: DefaultTextureLimits}
	var lim [3]*int64
	for _, s := range specs {
		v := func() uint64 {
			var b [8]byte
			copy(b[:], s.Value)
			return binary.LittleEndian.Uint64(b[:])
		}
		switch s.Key {
		case "small_texture_limits":
			if v() != 0 {
				o.TextureLimits = SmallTextureLimits
			}
		case "texture_limits_x", "texture_limits_y", "texture_limits_z":
			x := int64(v())
			lim[s.Key[len(s.Key)-1]-'x'] = &x
		case "require_dynamic_shapes", "skip_bool_tensors":
			// partitioner options; preprocess ignores them
		case "downcast_64_bit":
			if v() == 0 {
				return o, unsupported("compile spec downcast_64_bit=false")
			}
		case "storage_type_override", "memory_layout_override", "skip_tag_memory_metadata", "force_fp16",
			"skip_memory_planning", "alias_buffer_mutations", "external_constants_max_data_bytes":
			if v() != 0 {
				return o, unsupported("compile spec %s", s.Key)
			}
		}
	}
	for i, l := range lim {
		if l != nil {
			o.TextureLimits[i] = *l
		}
	}
	return o, nil
}

// Preprocess compiles a region (partition.Delegate.Program) into a VK00 blob as ExecuTorch
// 1.5.1's VulkanBackend.preprocess does: the graph passes that change fp32 programs
// (AddmmToLinearTransform, FuseBatchNormPass, FuseClampPass, RemoveRedundantOpsTransform,
// SqueezeUnsqueezeInputs, ViewCopyToSqueezeUnsqueezePass), insert_prepack_nodes,
// TagMemoryMetaPass (a storage type and memory layout per tensor, clone transitions where an
// operator needs another one), the greedy memory planning without overlapping allocations
// (mem_obj_id), then VkGraphBuilder's value numbering and operator chain, weights as named data
// keyed by their SHA-256. prog is rewritten in place.
//
// What the official preprocess would do that etgo does not (dynamic shapes, the quantized and
// LLM fusions, dtype promotion, view-copy fusion through elementwise chains) is refused with
// ErrUnsupported naming the node, never compiled differently.
func Preprocess(prog *ir.Graph, o PreprocessOptions) (_ *Processed, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("vulkan: preprocess: internal error: %v", r)
		}
	}()
	if o.TextureLimits == (Extents{}) {
		o.TextureLimits = DefaultTextureLimits
	}
	if err := checkSupported(prog); err != nil {
		return nil, err
	}
	anchor := fusionAnchors(prog)
	reports, err := passes.NewManager(
		addmmToLinear{}, transforms.FuseBatchNorm{}, addmmToLinear{}, fuseClamp{}, removeRedundantOps{},
		squeezeUnsqueezeInputs{}, fuseViewCopy{}, viewCopyToSqueezeUnsqueeze{},
	).Run(prog)
	if err != nil {
		return nil, fmt.Errorf("vulkan: preprocess: %w", err)
	}
	orderConstants(prog, anchor)
	g, err := toFX(prog)
	if err != nil {
		return nil, err
	}
	g.insertPrepackNodes()
	if err := g.tagMemoryMeta(o.TextureLimits); err != nil {
		return nil, err
	}
	g.planMemory()
	vg, named, err := g.build()
	if err != nil {
		return nil, err
	}
	blob, err := vg.Encode()
	if err != nil {
		return nil, err
	}
	return &Processed{Blob: blob, NamedData: named, Passes: reports}, nil
}

// checkSupported refuses regions that need what etgo's preprocess lacks.
func checkSupported(g *ir.Graph) error {
	for _, in := range g.Inputs {
		if in.Value == nil {
			continue
		}
		if in.Value.Kind != ir.TensorValue {
			return unsupported("input %s is a symbolic value (dynamic shapes)", in.Value.Name)
		}
		if in.Value.Meta == nil || !in.Value.Meta.IsStatic() {
			return unsupported("input %s has a dynamic shape (ConstraintBasedSymShapeEvalPass is not reproduced)", in.Value.Name)
		}
		if in.Kind != ir.UserInput {
			if _, ok := g.Constants[in.Target]; !ok {
				return fmt.Errorf("vulkan: preprocess: constant %s (%s) has no data", in.Value.Name, in.Target)
			}
		}
	}
	if err := checkPatterns(g); err != nil {
		return err
	}
	for _, o := range g.Outputs {
		if o.Kind != ir.UserOutput {
			return unsupported("output %s mutates %s", valueName(o.Value), o.Target)
		}
	}
	for _, n := range g.Nodes {
		if _, ok := registry[n.Target]; !ok {
			return unsupported("node %s: operator %s has no Vulkan implementation", n.Name, n.Target)
		}
		if quantizedOrFused(n.Target) {
			return unsupported("node %s: %s belongs to the quantized and LLM fusions (FusePatternsPass, FuseQuantizedOpsTransform, FoldQDQPass)", n.Name, n.Target)
		}
		for _, v := range n.Outputs {
			if v == nil {
				continue
			}
			if v.Kind != ir.TensorValue || v.Meta == nil {
				return unsupported("node %s: output %s is not a tensor (symbolic ints)", n.Name, v.Name)
			}
			if !v.Meta.IsStatic() {
				return unsupported("node %s: output %s has a dynamic shape", n.Name, v.Name)
			}
		}
		for _, a := range n.Args {
			if a.Kind == ir.ArgSymInt || a.Kind == ir.ArgSymInts && len(a.Values) > 0 && hasNonNil(a.Values) {
				return unsupported("node %s: argument %s is symbolic", n.Name, a.Name)
			}
		}
		if (n.Target == "aten.full.default" || n.Target == "aten.full_like.default") && n.FirstOutput() != nil &&
			n.FirstOutput().Meta != nil && n.FirstOutput().Meta.DType == ir.Bool {
			if a := n.Arg("fill_value"); a != nil && a.Kind != ir.ArgBool {
				// torch.ones(..., dtype=bool) reaches the official builder as full(size, True)
				// (a Bool value), etgo's Edge graph as full(size, 1) (an Int): which the
				// program said is lost, so etgo refuses rather than guess.
				return unsupported("node %s: a bool %s filled with a number (the official graph may hold a bool)", n.Name, n.Target)
			}
		}
		if binaryOps[n.Target] {
			ts := n.TensorInputs()
			if len(ts) == 2 && ts[0].Meta != nil && ts[1].Meta != nil && ts[0].Meta.DType != ts[1].Meta.DType {
				return unsupported("node %s: inputs of %s and %s (InsertDtypePromotionPass)", n.Name, ts[0].Meta.DType, ts[1].Meta.DType)
			}
		}
		if (len(n.Outputs) > 1 || n.ListOutput) && multiOutputsOf(n) == nil {
			return unsupported("node %s: %s returns several values", n.Name, n.Target)
		}
	}
	return nil
}

func hasNonNil(vs []*ir.Value) bool {
	for _, v := range vs {
		if v != nil {
			return true
		}
	}
	return false
}

func valueName(v *ir.Value) string {
	if v == nil {
		return "(constant)"
	}
	return v.Name
}

// quantizedOrFused reports operators whose presence means the official preprocess may fuse
// patterns around them (quantized linear/convolution, q/dq folding, RMS norm, rotary
// embedding, SDPA); etgo refuses them.
func quantizedOrFused(t string) bool {
	switch {
	case t == tConvClamp:
		return false
	case strings.HasPrefix(t, "quantized_"), strings.HasPrefix(t, "torchao."), strings.HasPrefix(t, "llama."),
		strings.HasPrefix(t, "et_vk."), t == "aten._weight_int8pack_mm.default":
		return true
	}
	return false
}

// binaryOps are InsertDtypePromotionPass's BINARY_OPS.
var binaryOps = map[string]bool{
	"aten.add.Tensor": true, "aten.sub.Tensor": true, "aten.mul.Tensor": true, "aten.div.Tensor": true,
	"aten.div.Tensor_mode": true, "aten.pow.Tensor_Tensor": true, "aten.minimum.default": true,
	"aten.eq.Tensor": true, "aten.lt.Tensor": true, "aten.le.Tensor": true, "aten.gt.Tensor": true, "aten.ge.Tensor": true,
}

// anchors remember where a fusion's new parameters go: FuseBatchNormPass inserts the fused
// weight and bias placeholders before the weight they replace.
type anchors struct {
	index  map[*ir.Value]int      // each input's position before the passes
	weight map[*ir.Node]*ir.Value // each convolution's and linear's weight before the passes
}

func fusionAnchors(g *ir.Graph) anchors {
	a := anchors{index: map[*ir.Value]int{}, weight: map[*ir.Node]*ir.Value{}}
	for i, in := range g.Inputs {
		a.index[in.Value] = i
	}
	for _, n := range g.Nodes {
		if w := n.TensorArg("weight"); w != nil {
			a.weight[n] = w
		}
	}
	return a
}

// orderConstants puts the inputs in the FX graph's placeholder order: the constants as the
// exported program had them, each fusion's new parameters just before the weight they
// replaced (in the order they were made), then the user inputs.
func orderConstants(g *ir.Graph, a anchors) {
	type key struct{ at, fresh, seq int }
	keys := map[*ir.Value]key{}
	for i, in := range g.Inputs {
		if at, ok := a.index[in.Value]; ok {
			keys[in.Value] = key{at, 1, 0}
			continue
		}
		keys[in.Value] = key{len(a.index), 1, i} // a new input nothing anchors: after the others
		for _, n := range g.Nodes {
			old, ok := a.weight[n]
			if !ok || (n.TensorArg("weight") != in.Value && n.TensorArg("bias") != in.Value) {
				continue
			}
			keys[in.Value] = key{a.index[old], 0, i}
			break
		}
	}
	slices.SortStableFunc(g.Inputs, func(x, y ir.InputSpec) int {
		if ux, uy := x.Kind == ir.UserInput, y.Kind == ir.UserInput; ux != uy {
			if ux {
				return 1
			}
			return -1
		}
		kx, ky := keys[x.Value], keys[y.Value]
		switch {
		case kx.at != ky.at:
			return kx.at - ky.at
		case kx.fresh != ky.fresh:
			return kx.fresh - ky.fresh
		}
		return kx.seq - ky.seq
	})
}

// checkPatterns refuses regions in which FusePatternsPass may find one of its fp32 patterns
// (patterns/rms_norm.py, rope.py, rope_hf.py, select_as_symint.py): etgo does not match them,
// and a region the official pass rewrites would get another blob. The test is conservative
// (the operators each pattern needs, anywhere in the region), so it can refuse a region the
// official pass would leave alone; it names the node and the pattern.
func checkPatterns(g *ir.Graph) error {
	first := map[string]*ir.Node{}
	for _, n := range g.Nodes {
		if first[n.Target] == nil {
			first[n.Target] = n
		}
	}
	has := func(ts ...string) *ir.Node {
		var last *ir.Node
		for _, t := range ts {
			if first[t] == nil {
				return nil
			}
			last = first[t]
		}
		return last
	}
	for _, p := range []struct {
		name string
		ops  []string
	}{
		{"rms_norm (mean, rsqrt, mul)", []string{"aten.mean.dim", "aten.rsqrt.default", "aten.mul.Tensor"}},
		{"hf_rope (neg, cat, mul, add)", []string{"aten.neg.default", "aten.cat.default", "aten.mul.Tensor", "aten.add.Tensor"}},
		{"export_llama_rope (select, mul, sub, add)", []string{"aten.select_copy.int", "aten.mul.Tensor", "aten.sub.Tensor", "aten.add.Tensor"}},
		{"select_as_symint (select, _local_scalar_dense)", []string{"aten.select_copy.int", "aten._local_scalar_dense.default"}},
	} {
		if n := has(p.ops...); n != nil {
			return unsupported("node %s: the region may hold FusePatternsPass's %s pattern, which etgo does not fuse", n.Name, p.name)
		}
	}
	return nil
}
