package aot

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/backends/transforms"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition/configs"
	"github.com/etgo/etgo/passes"
)

// The rewrites XnnpackBackend.preprocess runs on a region's own graph before its visitors, in
// the order of ExecuTorch's XNNPACKPassManager: the backend-independent ones from package
// transforms, and those only XNNPACK's graph needs, here (but DecomposeTanhGeluPass, which
// concerns one operator, in its family's op_activation.go). Each is a passes.Pass named by its
// ExecuTorch class, so a preprocess's reports read as ExecuTorch's pass list. What they need to
// know of an operator (its layout, whether it takes or is a fusable activation, its
// values-only form) they read from its family's registration.

// xnnpackPasses are the rewrites, writing the fused activations and the layout tags the
// visitor then reads into fused and nhwc.
func xnnpackPasses(fused fusedActivations, nhwc layouts) []passes.Pass {
	return []passes.Pass{
		transforms.RemoveCloneOps{PreserveInputOutputCopies: true}, // XNNPACK cannot pass an input through
		transforms.FuseBatchNorm{},
		transforms.DecomposeBatchNorm{},
		decomposeTanhGelu{},
		fuseActivation{fused},
		transforms.DecomposeConcatenate{MaxInputs: 5}, // XNNPACK's concatenate takes 2 to 5 inputs
		removeGetItem{},
		transforms.Conv1dUnsqueeze{},
		channelsLastTaggedReshape{nhwc},
		removeRedundantCopy{nhwc},
	}
}

// fxUsers counts the nodes reading v, plus one when v is a graph output (FX counts the output
// node as a user).
func fxUsers(g *ir.Graph, v *ir.Value) int {
	n := len(g.Users()[v])
	if g.IsGraphOutput(v) {
		n++
	}
	return n
}

// fuseActivation folds an activation registered as folding (relu, hardtanh) into the node
// before it, when that node's operator takes an output clamp (convolution, linear, add, sub,
// mul) and has no other user (FuseActivationPass). The clamp is XNNPACK's node parameter,
// which the visitor writes: the pass records it in fused (ExecuTorch's
// node.meta["XNN_FUSED_ACTIVATION"]).
type fuseActivation struct{ fused fusedActivations }

// fusedActivations are the output ranges (min, max) folded into nodes.
type fusedActivations map[*ir.Node][2]float32

func (fuseActivation) Name() string { return "FuseActivationPass" }

func (f fuseActivation) Run(g *ir.Graph) (string, error) {
	fused := 0
	for _, act := range slices.Clone(g.Nodes) {
		a := lookupOp(act.Target)
		if a == nil || !a.folds {
			continue
		}
		lo, hi := a.outputRange(act)
		in := act.FirstTensorArg()
		if in == nil || in.Producer == nil || fxUsers(g, in) > 1 {
			continue
		}
		if pr := lookupOp(in.Producer.Target); pr == nil || !pr.takesActivation {
			continue
		}
		if _, done := f.fused[in.Producer]; done {
			continue
		}
		f.fused[in.Producer] = [2]float32{lo, hi}
		g.ReplaceAllUses(act.FirstOutput(), in)
		g.RemoveNodes(map[*ir.Node]bool{act: true})
		fused++
	}
	return passes.Changes(fused, "fused %d activation(s) into the node before"), nil
}

// removeGetItem is RemoveGetItemPass: a max pool with indices, or a max.dim, of which only the
// values are read becomes the values-only operator (max_pool2d, amax), which XNNPACK runs as a
// max pooling. A max.dim whose indices are read too stays (an argmax pooling). ExecuTorch keeps
// the pass in backends/transforms, but what it refuses (a max pool's indices) and keeps (an
// argmax max.dim) is what XNNPACK's visitors can write.
type removeGetItem struct{}

func (removeGetItem) Name() string { return "RemoveGetItemPass" }

func (removeGetItem) Run(g *ir.Graph) (string, error) {
	users := g.Users()
	replaced := 0
	for _, n := range g.Nodes {
		o := lookupOp(n.Target)
		if o == nil || o.valuesOnly == "" {
			continue
		}
		used := false
		for _, v := range n.Outputs[min(1, len(n.Outputs)):] {
			used = used || v != nil && (len(users[v]) > 0 || g.IsGraphOutput(v))
		}
		if used {
			if o.writesIndices {
				continue
			}
			return "", fmt.Errorf("node %s: XNNPACK produces the values of %s, not its indices", n.Name, n.Target)
		}
		n.Target = o.valuesOnly
		n.Outputs = n.Outputs[:1]
		replaced++
	}
	return passes.Changes(replaced, "replaced %d max(es) with indices by the values-only operator"), nil
}

// isLayoutConversion reports a _to_copy or _to_dim_order_copy, which
// channelsLastTaggedReshape inserts and removeRedundantCopy removes.
func isLayoutConversion(n *ir.Node) bool { return layoutOf(n.Target) == layoutConversion }

// channelsLastTaggedReshape is ChannelsLastTaggedReshapePass: operators that need NHWC get it,
// operators that need NCHW get it (each operator's registered layout), everything else follows
// its inputs, and a layout conversion is inserted only where a value is needed in the other
// layout (once per value, shared). The tags (ExecuTorch's node.meta["XNN_NHWC_NODE"]) go to
// layouts, which RemoveRedundantCopyPass and the visitor read.
type channelsLastTaggedReshape struct{ nhwc layouts }

// layouts is the channels-last tag: present and true for NHWC values, present and false for
// values known to be NCHW.
type layouts map[*ir.Value]bool

func (channelsLastTaggedReshape) Name() string { return "ChannelsLastTaggedReshapePass" }

func (c channelsLastTaggedReshape) Run(g *ir.Graph) (string, error) {
	t := &tagger{g: g, params: transforms.ParamsOf(g), nhwc: c.nhwc, partner: map[*ir.Value]*ir.Value{}}
	if err := t.tag(); err != nil {
		return "", err
	}
	return passes.Changes(t.inserted, "inserted %d layout conversion(s)"), nil
}

// tagger is one run of channelsLastTaggedReshape.
type tagger struct {
	g        *ir.Graph
	params   *transforms.Params
	nhwc     layouts
	partner  map[*ir.Value]*ir.Value // a value's copy in the other layout
	inserted int
}

func (t *tagger) isUserInput(v *ir.Value) bool { return v.Producer == nil && !t.params.Is(v) }

// insertAfter puts n right after the producer of v (before every node when v is an input), as
// FX's inserting_after does.
func (t *tagger) insertAfter(v *ir.Value, n *ir.Node) {
	at := 0
	if v.Producer != nil {
		for i, x := range t.g.Nodes {
			if x == v.Producer {
				at = i + 1
				break
			}
		}
	}
	t.g.Nodes = slices.Insert(t.g.Nodes, at, n)
}

func (t *tagger) tag() error {
	for _, in := range t.g.Inputs {
		if in.Value != nil && in.Value.Rank() == 4 {
			t.nhwc[in.Value] = false
		}
	}
	for _, n := range slices.Clone(t.g.Nodes) {
		inputs := n.TensorInputs()
		switch layout := layoutOf(n.Target); {
		case len(inputs) == 0:
			for _, v := range n.Outputs {
				if v != nil && v.Rank() == 4 {
					t.nhwc[v] = false
				}
			}
		case layout == layoutNHWC:
			if err := t.toNHWC(n.FirstTensorArg(), n); err != nil {
				return err
			}
			for _, v := range n.TensorInputs()[1:] {
				if t.isUserInput(v) && t.nhwc[v] {
					return fmt.Errorf("node %s: input %s expected NCHW", n.Name, v.Name)
				}
			}
			t.mark(n, true)
		case layout == layoutNCHW:
			for _, v := range inputs {
				if err := t.toNCHW(v, n); err != nil {
					return err
				}
			}
		case layout == layoutConversion:
			t.mark(n, toChannelsLast(n))
		default:
			all, any := true, false
			for _, v := range inputs {
				all = all && t.isNHWC(v)
				any = any || t.isNHWC(v)
			}
			switch {
			case all:
				t.mark(n, true)
			case any:
				if err := t.converge(n, inputs); err != nil {
					return err
				}
			}
		}
	}
	for i := range t.g.Outputs {
		if v := t.g.Outputs[i].Value; v != nil {
			if err := t.toNCHW(v, nil); err != nil {
				return err
			}
		}
	}
	return t.reconverge()
}

// broadcastBinary are the pass's broadcast_binary_ops, whose two operands must share a layout.
var broadcastBinary = map[string]bool{
	"aten.add.Tensor": true, "aten.mul.Tensor": true, "aten.sub.Tensor": true, "aten.div.Tensor": true,
}

// reconverge is the pass's last step. dynamicToNHWC makes every user of the traced-back
// source read its NHWC copy, an add or mul processed before it too, whose other operand (a
// per-channel constant, another activation) stays NCHW. After the traversal, each such binary
// operator with two distinct operands in different layouts gets them converged as the
// traversal would: both to NHWC if both can be, else both to NCHW. ExecuTorch drops the
// partner copies before this step (the retrace between), so conversions made here are new
// ones, not the traversal's.
func (t *tagger) reconverge() error {
	clear(t.partner)
	for _, n := range slices.Clone(t.g.Nodes) {
		if !broadcastBinary[n.Target] {
			continue
		}
		inputs := n.TensorInputs()
		if len(inputs) != 2 || t.isNHWC(inputs[0]) == t.isNHWC(inputs[1]) {
			continue
		}
		if err := t.converge(n, inputs); err != nil {
			return err
		}
	}
	return nil
}

// converge gives node n's inputs one layout: NHWC (and n tagged NHWC) when every input can be,
// else NCHW.
func (t *tagger) converge(n *ir.Node, inputs []*ir.Value) error {
	convertible := true
	for _, v := range inputs {
		convertible = convertible && t.canBeNHWC(v)
	}
	for _, v := range inputs {
		var err error
		if convertible {
			err = t.toNHWC(v, n)
		} else {
			err = t.toNCHW(v, n)
		}
		if err != nil {
			return err
		}
	}
	if convertible {
		t.mark(n, true)
	}
	return nil
}

func (t *tagger) mark(n *ir.Node, nhwc bool) {
	for _, v := range n.Outputs {
		if v != nil {
			t.nhwc[v] = nhwc
		}
	}
}

func (t *tagger) canBeNHWC(v *ir.Value) bool {
	tagged, isTagged := t.nhwc[v]
	return v.Rank() == 4 && !(t.params.Is(v) && isTagged && !tagged)
}

// replaceInput makes target read repl instead of v; a nil target means the region's outputs.
func (t *tagger) replaceInput(target *ir.Node, v, repl *ir.Value) {
	if target == nil {
		for i := range t.g.Outputs {
			if t.g.Outputs[i].Value == v {
				t.g.Outputs[i].Value = repl
			}
		}
		return
	}
	for ai := range target.Args {
		for vi, x := range target.Args[ai].Values {
			if x == v {
				target.Args[ai].Values[vi] = repl
			}
		}
	}
}

// convert returns v's copy in the other layout, inserting the conversion the first time.
func (t *tagger) convert(v *ir.Value, toNHWC bool) *ir.Value {
	if c, ok := t.partner[v]; ok {
		return c
	}
	format, suffix := int64(memoryContiguous), "_nchw"
	if toNHWC {
		format, suffix = memoryChannelsLast, "_nhwc"
	}
	n := &ir.Node{Name: v.Name + suffix, Target: targetToCopy, Args: []ir.Arg{
		{Name: "self", Kind: ir.ArgTensor, Values: []*ir.Value{v}},
		{Name: "memory_format", Kind: ir.ArgMemoryFormat, Int: format, KwargOnly: true},
	}}
	c := t.g.NewValue(v.Name+suffix, v.Meta, n)
	n.Outputs = []*ir.Value{c}
	n.DebugHandle = defaultDebugHandle
	t.insertAfter(v, n)
	t.inserted++
	t.nhwc[c] = toNHWC
	t.partner[v], t.partner[c] = c, v
	return c
}

func (t *tagger) toNHWC(v *ir.Value, target *ir.Node) error {
	if v == nil {
		return fmt.Errorf("node %s has no tensor input", target.Name)
	}
	if t.params.Is(v) {
		// A constant is stored in the layout its users need; it cannot serve both.
		if tagged, ok := t.nhwc[v]; ok && !tagged {
			return fmt.Errorf("constant %s is used in NCHW in one place and NHWC in another", v.Name)
		}
		t.nhwc[v] = true
		return nil
	}
	if t.isNHWC(v) {
		return nil
	}
	if !t.canBeNHWC(v) {
		return fmt.Errorf("value %s (%s) cannot be converted to NHWC", v.Name, v.Meta)
	}
	if _, ok := t.partner[v]; !ok && v.Producer != nil && configs.IsDequantize(v.Producer) && configs.IsDynamicQDQ(v.Producer) {
		t.dynamicToNHWC(v)
		return nil
	}
	t.replaceInput(target, v, t.convert(v, true))
	return nil
}

// dynamicToNHWC is input_to_nhwc's dynamic-quantization path: the NHWC copy goes before the
// per-image quantization, not after the dq, so the Convert quantizes the NHWC tensor. ExecuTorch
// traces back from the dq through each node's first argument while it is a single tensor (to
// the region's input or the first node whose first argument is not one), puts the copy after
// that source and makes every user of the source read the copy (replace_all_uses_with). The q
// and dq keep their NCHW shapes (they are not tagged), which is why the official graph's qdint8
// value has NCHW dims over NHWC data; the dq counts as NHWC through its q's input (isNHWC).
func (t *tagger) dynamicToNHWC(v *ir.Value) {
	root := v
	for root.Producer != nil && len(root.Producer.Args) > 0 {
		a := root.Producer.Args[0]
		if a.Kind != ir.ArgTensor || len(a.Values) != 1 || a.Values[0] == nil {
			break
		}
		root = a.Values[0]
	}
	n := &ir.Node{Name: root.Name + "_nhwc", Target: targetToCopy, Args: []ir.Arg{
		{Name: "self", Kind: ir.ArgTensor, Values: []*ir.Value{root}},
		{Name: "memory_format", Kind: ir.ArgMemoryFormat, Int: memoryChannelsLast, KwargOnly: true},
	}}
	c := t.g.NewValue(root.Name+"_nhwc", root.Meta, n)
	n.Outputs = []*ir.Value{c}
	n.DebugHandle = defaultDebugHandle
	t.insertAfter(root, n)
	t.inserted++
	for _, x := range t.g.Nodes {
		if x != n {
			t.replaceInput(x, root, c)
		}
	}
	t.replaceInput(nil, root, c)
	t.nhwc[c] = true
	t.partner[root], t.partner[c] = c, root
}

// isNHWC is is_nhwc_node: a value's tag, except that a dynamically quantized dq is in the
// layout of the tensor its q quantizes (dynamicToNHWC leaves the q and dq untagged).
// ExecuTorch derives every dq's layout so; etgo's static q/dq already carry their input's tag.
func (t *tagger) isNHWC(v *ir.Value) bool {
	if d := v.Producer; d != nil && configs.IsDequantize(d) && configs.IsDynamicQDQ(d) {
		if q := d.FirstTensorArg(); q != nil && q.Producer != nil && configs.IsQuantize(q.Producer) {
			if a := q.Producer.FirstTensorArg(); a != nil {
				return t.nhwc[a]
			}
		}
	}
	return t.nhwc[v]
}

func (t *tagger) toNCHW(v *ir.Value, target *ir.Node) error {
	if t.params.Is(v) {
		if tagged, ok := t.nhwc[v]; ok && tagged {
			return fmt.Errorf("constant %s is used in NHWC in one place and NCHW in another", v.Name)
		}
		t.nhwc[v] = false
		return nil
	}
	if !t.isNHWC(v) {
		return nil
	}
	t.replaceInput(target, v, t.convert(v, false))
	return nil
}

// removeRedundantCopy drops a conversion that undoes the one before it, and a conversion to
// the layout its input already has (RemoveRedundantCopyPass), by the tags
// channelsLastTaggedReshape set.
type removeRedundantCopy struct{ nhwc layouts }

func (removeRedundantCopy) Name() string { return "RemoveRedundantCopyPass" }

func (r removeRedundantCopy) Run(g *ir.Graph) (string, error) {
	removed := 0
	for _, n := range slices.Clone(g.Nodes) {
		if !isLayoutConversion(n) || !slices.Contains(g.Nodes, n) {
			continue
		}
		in, out := n.FirstTensorArg(), n.FirstOutput()
		if in == nil || out == nil {
			continue
		}
		if prev := in.Producer; prev != nil && isLayoutConversion(prev) && r.nhwc[in] != r.nhwc[out] && fxUsers(g, in) == 1 {
			g.ReplaceAllUses(out, prev.FirstTensorArg())
			g.RemoveNodes(map[*ir.Node]bool{n: true, prev: true})
			removed += 2
			continue
		}
		if r.nhwc[in] == r.nhwc[out] {
			g.ReplaceAllUses(out, in)
			g.RemoveNodes(map[*ir.Node]bool{n: true})
			removed++
		}
	}
	return passes.Changes(removed, "removed %d layout conversion(s)"), nil
}
