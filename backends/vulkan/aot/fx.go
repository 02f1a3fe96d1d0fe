package aot

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// The later stages of the official preprocess (insert_prepack_nodes, TagMemoryMetaPass, the
// memory planning and VkGraphBuilder) walk an FX graph: placeholders, one node per operator
// call, a getitem node per used item of a multi-output call, an output node; a node's users
// in the order their uses were made. fxGraph is that graph, made from etgo's.

type fxKind uint8

const (
	fxPlaceholder fxKind = iota
	fxCall
	fxGetitem
	fxOutput
)

type fxNode struct {
	kind   fxKind
	name   string
	target string
	ir     *ir.Node // the call's node in etgo's graph (the registry's checks read it)
	// args are the FX positional arguments; kwargs the keyword-only ones that were given.
	args   []fxArg
	kwargs []fxArg
	// vals is meta["val"]: one tensor, or the items of a tuple (tuple set).
	vals  []*ir.TensorMeta
	tuple bool
	item  int // a getitem's index
	users []*fxNode

	param     bool         // a parameter, buffer or constant placeholder
	data      *ir.Constant // its data
	tensorRef bool         // etvk_tensorref: a constant the prepacking handles

	// specs are the node's TensorSpecs (a getitem shares its item's; a prepack node its own).
	specs   []*tensorSpec
	repsets *opRepSets // etvk_node_repsets
}

// tensorSpec is ExecuTorch's TensorSpec as far as preprocess reads it.
type tensorSpec struct {
	meta       *ir.TensorMeta
	konst      bool
	lifetime   [2]int
	hasLife    bool
	memObjID   int // -1: none
	repr       *tensorRepr
	dedicated  bool // mem_obj_id forced to -1 (prepack nodes)
	planned    bool
	allocBytes int64
}

type fxArgKind uint8

const (
	faNone fxArgKind = iota
	faNode
	faNodes
	faInt
	faFloat
	faBool
	faInts
	faFloats
	faBools
	faStr
)

type fxArg struct {
	name   string
	kind   fxArgKind
	node   *fxNode
	nodes  []*fxNode
	i      int64
	f      float64
	b      bool
	is     []int64
	fs     []float64
	bs     []bool
	s      string
	intArg bool // a "Scalar" given as an int
}

type fxGraph struct {
	nodes []*fxNode
	// userInputs are the user-input placeholders in order; outputs the output node's args.
	outputs []*fxNode
}

func (n *fxNode) isTensor() bool { return len(n.vals) > 0 }

// nodesOf lists the nodes an argument refers to.
func (a *fxArg) nodesOf() []*fxNode {
	switch a.kind {
	case faNode:
		return []*fxNode{a.node}
	case faNodes:
		return a.nodes
	}
	return nil
}

func addUser(n, u *fxNode) {
	if !slices.Contains(n.users, u) {
		n.users = append(n.users, u)
	}
}

func removeUser(n, u *fxNode) {
	if i := slices.Index(n.users, u); i >= 0 {
		n.users = slices.Delete(n.users, i, i+1)
	}
}

// refersTo reports whether u reads n in any argument.
func (u *fxNode) refersTo(n *fxNode) bool {
	for _, as := range [][]fxArg{u.args, u.kwargs} {
		for i := range as {
			if slices.Contains(as[i].nodesOf(), n) {
				return true
			}
		}
	}
	return false
}

// replaceInput makes u read repl where it read old (Node.replace_input_with).
func (u *fxNode) replaceInput(old, repl *fxNode) {
	for _, as := range [][]fxArg{u.args, u.kwargs} {
		for i := range as {
			a := &as[i]
			switch a.kind {
			case faNode:
				if a.node == old {
					a.node = repl
				}
			case faNodes:
				for j := range a.nodes {
					if a.nodes[j] == old {
						a.nodes[j] = repl
					}
				}
			}
		}
	}
	removeUser(old, u)
	addUser(repl, u)
}

func (g *fxGraph) insertBefore(at, n *fxNode) {
	i := slices.Index(g.nodes, at)
	g.nodes = slices.Insert(g.nodes, i, n)
}

func (g *fxGraph) insertAfter(at, n *fxNode) {
	i := slices.Index(g.nodes, at)
	g.nodes = slices.Insert(g.nodes, i+1, n)
}

// multiOutputMetas gives the metadata of every item a multi-output operator returns (etgo's
// graph drops the unused ones; FX keeps them all in meta["val"]).
var multiOutputMetas = map[string]func(n *ir.Node) ([]*ir.TensorMeta, error){
	"aten._native_batch_norm_legit_no_training.default": func(n *ir.Node) ([]*ir.TensorMeta, error) {
		in := n.FirstTensorArg()
		if in == nil || in.Meta == nil {
			return nil, fmt.Errorf("no input")
		}
		stat := &ir.TensorMeta{DType: in.Meta.DType, Sizes: []ir.Dim{{Size: 0}}}
		return []*ir.TensorMeta{outMeta(n, 0, in.Meta), outMeta(n, 1, stat), outMeta(n, 2, stat)}, nil
	},
	"aten.native_layer_norm.default": func(n *ir.Node) ([]*ir.TensorMeta, error) {
		in := n.FirstTensorArg()
		shape := n.IntsArg("normalized_shape", nil)
		if in == nil || in.Meta == nil || len(shape) > len(in.Meta.Sizes) {
			return nil, fmt.Errorf("no input or normalized_shape")
		}
		axis := len(in.Meta.Sizes) - len(shape)
		stat := &ir.TensorMeta{DType: in.Meta.DType, Sizes: slices.Clone(in.Meta.Sizes[:axis])}
		for range shape {
			stat.Sizes = append(stat.Sizes, ir.Dim{Size: 1})
		}
		return []*ir.TensorMeta{outMeta(n, 0, in.Meta), outMeta(n, 1, stat), outMeta(n, 2, stat)}, nil
	},
	"aten.max_pool2d_with_indices.default": func(n *ir.Node) ([]*ir.TensorMeta, error) {
		out := n.Outputs[0]
		if out == nil || out.Meta == nil {
			if len(n.Outputs) < 2 || n.Outputs[1] == nil {
				return nil, fmt.Errorf("no used output")
			}
			out = n.Outputs[1]
		}
		values := &ir.TensorMeta{DType: n.FirstTensorArg().Meta.DType, Sizes: out.Meta.Sizes}
		idx := &ir.TensorMeta{DType: ir.Int64, Sizes: out.Meta.Sizes}
		return []*ir.TensorMeta{outMeta(n, 0, values), outMeta(n, 1, idx)}, nil
	},
}

// multiOutputsOf returns how to make a multi-output node's item metadata: the operator's own
// rule, or, for a list whose items are all used (split_with_sizes_copy), the items'.
func multiOutputsOf(n *ir.Node) func(n *ir.Node) ([]*ir.TensorMeta, error) {
	if mk := multiOutputMetas[n.Target]; mk != nil {
		return mk
	}
	if len(n.Outputs) <= 1 && !n.ListOutput {
		return nil
	}
	for _, v := range n.Outputs {
		if v == nil || v.Meta == nil {
			return nil
		}
	}
	return func(n *ir.Node) ([]*ir.TensorMeta, error) {
		out := make([]*ir.TensorMeta, len(n.Outputs))
		for i, v := range n.Outputs {
			out[i] = v.Meta
		}
		return out, nil
	}
}

func outMeta(n *ir.Node, i int, def *ir.TensorMeta) *ir.TensorMeta {
	if i < len(n.Outputs) && n.Outputs[i] != nil && n.Outputs[i].Meta != nil {
		return n.Outputs[i].Meta
	}
	return def
}

// toFX makes the FX graph of a preprocessed region: placeholders in the region's input order
// (its constants, then its user inputs), a call per node, getitems after a multi-output call
// for its used items in order, the output node.
func toFX(p *ir.Graph) (*fxGraph, error) {
	g := &fxGraph{}
	of := map[*ir.Value]*fxNode{}
	// torch.export puts the parameters, buffers and constants before the user inputs, and the
	// fusion passes insert their new parameters there too (create_constant_placeholder).
	inputs := slices.Clone(p.Inputs)
	slices.SortStableFunc(inputs, func(a, b ir.InputSpec) int {
		ua, ub := a.Kind == ir.UserInput, b.Kind == ir.UserInput
		switch {
		case ua == ub:
			return 0
		case ub:
			return -1
		}
		return 1
	})
	for _, in := range inputs {
		if in.Value == nil {
			continue
		}
		n := &fxNode{kind: fxPlaceholder, name: in.Value.Name, target: in.Value.Name, vals: []*ir.TensorMeta{in.Value.Meta}}
		if in.Kind != ir.UserInput {
			n.param, n.data = true, p.Constants[in.Target]
		}
		g.nodes = append(g.nodes, n)
		of[in.Value] = n
	}
	users := p.Users()
	for _, in := range p.Nodes {
		n := &fxNode{kind: fxCall, name: in.Name, target: in.Target, ir: in}
		for _, a := range in.Args {
			fa, err := fxArgOf(a, of)
			if err != nil {
				return nil, fmt.Errorf("vulkan: preprocess: node %s: argument %s: %w", in.Name, a.Name, err)
			}
			if a.KwargOnly {
				n.kwargs = append(n.kwargs, fa)
			} else {
				n.args = append(n.args, fa)
			}
			for _, r := range fa.nodesOf() {
				addUser(r, n)
			}
		}
		g.nodes = append(g.nodes, n)
		if mk := multiOutputsOf(in); mk != nil {
			vals, err := mk(in)
			if err != nil {
				return nil, fmt.Errorf("vulkan: preprocess: node %s: %w", in.Name, err)
			}
			n.vals, n.tuple = vals, true
			for i, v := range in.Outputs {
				// FX has a getitem only for the items something reads.
				if v == nil || len(users[v]) == 0 && !p.IsGraphOutput(v) {
					continue
				}
				gi := &fxNode{kind: fxGetitem, name: v.Name, target: "getitem", item: i, vals: []*ir.TensorMeta{vals[i]},
					args: []fxArg{{kind: faNode, node: n}, {kind: faInt, i: int64(i)}}}
				addUser(n, gi)
				g.nodes = append(g.nodes, gi)
				of[v] = gi
			}
			continue
		}
		if len(in.Outputs) != 1 || in.Outputs[0] == nil || in.Outputs[0].Meta == nil {
			return nil, unsupported("node %s: %d outputs", in.Name, len(in.Outputs))
		}
		n.vals = []*ir.TensorMeta{in.Outputs[0].Meta}
		of[in.Outputs[0]] = n
	}
	out := &fxNode{kind: fxOutput, name: "output", target: "output"}
	for _, o := range p.Outputs {
		src, ok := of[o.Value]
		if o.Value == nil || !ok {
			return nil, unsupported("output %s is not a tensor made by the region", valueName(o.Value))
		}
		out.args = append(out.args, fxArg{kind: faNode, node: src})
		g.outputs = append(g.outputs, src)
		addUser(src, out)
	}
	g.nodes = append(g.nodes, out)
	return g, nil
}

func fxArgOf(a ir.Arg, of map[*ir.Value]*fxNode) (fxArg, error) {
	fa := fxArg{name: a.Name}
	node := func(v *ir.Value) (*fxNode, error) {
		n, ok := of[v]
		if !ok || v == nil {
			return nil, fmt.Errorf("reads a value the region does not have")
		}
		return n, nil
	}
	switch a.Kind {
	case ir.ArgNone, ir.ArgScalarType, ir.ArgMemoryFormat, ir.ArgLayout, ir.ArgDevice:
		fa.kind = faNone
	case ir.ArgTensor:
		if len(a.Values) != 1 {
			return fa, fmt.Errorf("%d tensors", len(a.Values))
		}
		if a.Values[0] == nil {
			fa.kind = faNone
			break
		}
		n, err := node(a.Values[0])
		if err != nil {
			return fa, err
		}
		fa.kind, fa.node = faNode, n
	case ir.ArgTensors:
		fa.kind = faNodes
		for _, v := range a.Values {
			n, err := node(v)
			if err != nil {
				return fa, err
			}
			fa.nodes = append(fa.nodes, n)
		}
	case ir.ArgInt:
		fa.kind, fa.i = faInt, a.Int
	case ir.ArgInts, ir.ArgSymInts:
		fa.kind, fa.is = faInts, a.Ints
	case ir.ArgFloat:
		fa.kind, fa.f = faFloat, a.Float
	case ir.ArgFloats:
		fa.kind, fa.fs = faFloats, a.Floats
	case ir.ArgBool:
		fa.kind, fa.b = faBool, a.Bool
	case ir.ArgBools:
		fa.kind, fa.bs = faBools, a.Bools
	case ir.ArgString:
		fa.kind, fa.s = faStr, a.Str
	default:
		return fa, unsupported("argument kind %d", a.Kind)
	}
	return fa, nil
}

// insertPrepackNodes is insert_prepack_nodes: every constant becomes a TensorRef; the users
// that do not prepack their constants themselves, or that take it as their primary (first)
// input, read it through an et_vk.prepack node instead, placed after the constant. Constants
// nothing reads any longer are left for the builder to skip.
func (g *fxGraph) insertPrepackNodes() {
	for _, n := range slices.Clone(g.nodes) {
		if !n.param {
			continue
		}
		n.tensorRef = true
		var replace []*fxNode
		for _, u := range n.users {
			if u.kind != fxCall {
				continue
			}
			f := registry[u.target]
			if f == nil || !f.prepacking {
				replace = append(replace, u)
				continue
			}
			primary := 0
			if u.target == "aten.embedding.default" {
				primary = 1
			}
			if primary < len(u.args) && u.args[primary].kind == faNode && u.args[primary].node == n && firstArgIndex(u, n) == primary {
				replace = append(replace, u)
			}
		}
		if len(replace) == 0 {
			continue
		}
		p := &fxNode{kind: fxCall, name: n.name + "_prepack", target: tPrepack, vals: n.vals,
			args: []fxArg{{name: "x", kind: faNode, node: n}}}
		p.ir = &ir.Node{Name: p.name, Target: tPrepack}
		g.insertAfter(n, p)
		all := len(replace) == len(n.users)
		addUser(n, p)
		if all {
			for _, u := range slices.Clone(n.users) {
				if u != p && u.kind != fxOutput {
					u.replaceInput(n, p)
				}
			}
		} else {
			for _, u := range replace {
				u.replaceInput(n, p)
			}
		}
	}
}

// firstArgIndex is args.index(n): the first positional argument that is n.
func firstArgIndex(u, n *fxNode) int {
	for i, a := range u.args {
		if a.kind == faNode && a.node == n {
			return i
		}
	}
	return -1
}
