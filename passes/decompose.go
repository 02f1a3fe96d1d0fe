package passes

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/etgo/etgo/ir"
)

// Decompose rewrites operators outside core ATen into core ATen (and ExecuTorch's dim-order
// operators), as to_edge's run_decompositions does with the default table, for the operators
// etgo has a decomposition for. Nodes every Preserve keeps whole are left alone (ToEdge runs
// one Decompose per partitioner, as ExecuTorch does). Operators with no decomposition here are
// left too: VerifyEdge names them. Each decomposition produces what torch's produces, so
// partition plans match the official ones.
type Decompose struct {
	Preserve []Preserve
	// Only, when set, restricts the pass to these operators (the ones torch.export decomposes
	// before any partitioner is asked what to keep).
	Only map[string]bool
}

func (Decompose) Name() string { return "Decompose" }

// decomposition rewrites one node; it may retarget it, insert nodes before it, or remove it.
type decomposition func(g *ir.Graph, n *ir.Node, st *strides) error

var decompositions = map[string]decomposition{
	"aten.adaptive_avg_pool2d.default":     decomposeAdaptiveAvgPool2d,
	"aten.reshape.default":                 decomposeReshape,
	"aten._unsafe_view.default":            decomposeReshape,
	"aten._assert_tensor_metadata.default": removeAssert,
	"aten.max_pool2d.default":              decomposeMaxPool2d,
	"aten.layer_norm.default":              decomposeLayerNorm,
	"aten.chunk.default":                   decomposeChunk,
	"aten.transpose.int":                   decomposeTranspose,
}

// rule is a decomposition written with a Builder: it calls the replacement's operators and
// ends with b.Replace (or returns an error naming what it does not handle).
type rule func(b *Builder, n *ir.Node) error

var rules = map[string]rule{}

// registerRule adds a decomposition for each target; one operator has one decomposition.
func registerRule(r rule, targets ...string) {
	for _, t := range targets {
		if _, dup := rules[t]; dup || decompositions[t] != nil {
			panic("passes: two decompositions for " + t)
		}
		rules[t] = r
	}
}

// HasDecomposition reports whether etgo can decompose target.
func HasDecomposition(target string) bool {
	_, ok := rules[target]
	return ok || decompositions[target] != nil
}

// maxDecomposeRounds bounds the rewriting: a decomposition may produce operators that are
// decomposed in turn (as torch's table recurses), never more than a few levels deep.
const maxDecomposeRounds = 16

func (d Decompose) Run(g *ir.Graph) (string, error) {
	st := &strides{known: map[*ir.Value][]int64{}, recorded: map[*ir.Value]bool{}}
	for _, n := range g.Nodes {
		for _, v := range n.Outputs {
			if v != nil {
				st.recorded[v] = true
			}
		}
	}
	counts := map[string]int{}
	for round := 0; ; round++ {
		changed := false
		for _, n := range slices.Clone(g.Nodes) {
			fn, old := decompositions[n.Target]
			r, isRule := rules[n.Target]
			if (!old && !isRule) || preserved(g, n, d.Preserve) || (d.Only != nil && !d.Only[n.Target]) {
				continue
			}
			if round == maxDecomposeRounds {
				return "", fmt.Errorf("node %s (%s): decompositions still produce it after %d rounds", n.Name, n.Target, round)
			}
			target := n.Target
			err := func() (err error) {
				// A rule that trips over a graph it did not expect must not take the caller
				// down: its panic becomes this node's error.
				defer func() {
					if p := recover(); p != nil {
						err = fmt.Errorf("decomposition failed: %v", p)
					}
				}()
				if old {
					return fn(g, n, st)
				}
				return r(newBuilder(g, n, st), n)
			}()
			if err != nil {
				return "", fmt.Errorf("node %s (%s): %w", n.Name, target, err)
			}
			counts[target]++
			changed = true
		}
		if !changed {
			break
		}
	}
	if len(counts) == 0 {
		return "", nil
	}
	var parts []string
	for _, t := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s ×%d", t, counts[t]))
	}
	return "decomposed " + strings.Join(parts, ", "), nil
}

// tensorIn returns the tensor passed as the named argument, with its metadata.
func tensorIn(n *ir.Node, name string) (*ir.Value, error) {
	v := n.TensorArg(name)
	if v == nil || v.Meta == nil {
		return nil, fmt.Errorf("argument %s is not a tensor", name)
	}
	return v, nil
}

// result is the node's single tensor output.
func result(n *ir.Node) (*ir.Value, error) {
	if len(n.Outputs) != 1 || n.Outputs[0] == nil || n.Outputs[0].Meta == nil {
		return nil, fmt.Errorf("expected one tensor result")
	}
	return n.Outputs[0], nil
}

func repeat(x int64, k int) []int64 {
	out := make([]int64, k)
	for i := range out {
		out[i] = x
	}
	return out
}

func tensorArgOf(name string, v *ir.Value) ir.Arg {
	return ir.Arg{Name: name, Kind: ir.ArgTensor, Values: []*ir.Value{v}}
}

// insertBefore adds a node calling target with args before at; the node and its one result
// share a fresh name built from base.
func insertBefore(g *ir.Graph, at *ir.Node, base, target string, meta *ir.TensorMeta, args ...ir.Arg) *ir.Value {
	node := &ir.Node{Target: target, Args: args}
	v := g.NewValue(base, meta, node)
	node.Name = v.Name
	node.Outputs = []*ir.Value{v}
	g.InsertBefore(at, node)
	return v
}

// forward removes n, whose result is its input unchanged, and makes its readers read the input.
func forward(g *ir.Graph, n *ir.Node, in *ir.Value) {
	for _, out := range n.Outputs {
		if out != nil {
			g.ReplaceAllUses(out, in)
		}
	}
	g.RemoveNodes(map[*ir.Node]bool{n: true})
}

// decomposeAdaptiveAvgPool2d: to a 1×1 output it is a mean over H and W keeping dims (ATen's
// own shortcut), restrided to [c, 1, c, c] when the input is channels-last (ATen's
// as_strided_, which functionalization makes an as_strided view); otherwise the core
// _adaptive_avg_pool2d.
func decomposeAdaptiveAvgPool2d(g *ir.Graph, n *ir.Node, st *strides) error {
	in, err := tensorIn(n, "self")
	if err != nil {
		return err
	}
	size := n.IntsArg("output_size", nil)
	if slices.Equal(size, []int64{1, 1}) {
		meanArgs := []ir.Arg{tensorArgOf("self", in), {Name: "dim", Kind: ir.ArgInts, Ints: []int64{-1, -2}}, {Name: "keepdim", Kind: ir.ArgBool, Bool: true}}
		if in.Meta.IsStatic() && channelsLast2d(sizesOf(in.Meta), st.of(in)) {
			out, err := result(n)
			if err != nil {
				return err
			}
			meta := *out.Meta
			meta.Sizes, meta.DimOrder = slices.Clone(out.Meta.Sizes), nil
			mean := insertBefore(g, n, n.Name+"_mean", "aten.mean.dim", &meta, meanArgs...)
			sz := sizesOf(in.Meta)
			c := sz[1]
			n.Target = "aten.as_strided.default"
			n.Args = []ir.Arg{tensorArgOf("self", mean), {Name: "size", Kind: ir.ArgInts, Ints: []int64{sz[0], c, 1, 1}},
				{Name: "stride", Kind: ir.ArgInts, Ints: []int64{c, 1, c, c}}}
			out.Meta.DimOrder = nil
			return nil
		}
		n.Target = "aten.mean.dim"
		n.Args = meanArgs
		return nil
	}
	n.Target = "aten._adaptive_avg_pool2d.default"
	return nil
}

func decomposeReshape(g *ir.Graph, n *ir.Node, st *strides) error {
	in, err := tensorIn(n, "self")
	if err != nil {
		return err
	}
	return reshapeTo(g, n, in, st)
}

// reshapeTo turns n into view(in, result shape) when in's strides allow a view (ATen's
// computeStride), and otherwise into a contiguous copy (_clone_dim_order) followed by the view.
func reshapeTo(g *ir.Graph, n *ir.Node, in *ir.Value, st *strides) error {
	out, err := result(n)
	if err != nil {
		return err
	}
	if !in.Meta.IsStatic() || !out.Meta.IsStatic() {
		// Strides of symbolic shapes are not tracked; a view is certain only for a contiguous
		// input, and then the view takes reshape's own size list, symbolic entries and -1 as
		// they are (ExecuTorch resolves them at run time, in et_view).
		shape := n.Arg("shape")
		if shape == nil || (shape.Kind != ir.ArgInts && shape.Kind != ir.ArgSymInts) || !surelyContiguous(in) {
			return fmt.Errorf("reshape with symbolic sizes (%s to %s) of a tensor that may not be contiguous is not decomposed yet", in.Meta, out.Meta)
		}
		n.Target = "aten.view.default"
		n.Args = []ir.Arg{tensorArgOf("self", in), {Name: "size", Kind: shape.Kind, Ints: shape.Ints, Values: shape.Values}}
		return nil
	}
	src := in
	size := sizesOf(out.Meta)
	if hasLayout(st, in, memoryFormatContiguous) {
		// ATen's reshape views a contiguous tensor with the size list as given (a -1 stays).
		for _, name := range []string{"shape", "size"} {
			if a := n.Arg(name); a != nil && a.Kind == ir.ArgInts {
				size = a.Ints
			}
		}
	} else if !viewable(sizesOf(in.Meta), st.of(in), sizesOf(out.Meta)) {
		meta := *in.Meta
		meta.Sizes = slices.Clone(in.Meta.Sizes)
		src = insertBefore(g, n, n.Name+"_clone", "dim_order_ops._clone_dim_order.default", &meta,
			tensorArgOf("self", in), ir.Arg{Name: "dim_order", Kind: ir.ArgInts, Ints: identity(len(in.Meta.Sizes)), KwargOnly: true})
	}
	n.Target = "aten.view.default"
	n.Args = []ir.Arg{tensorArgOf("self", src), {Name: "size", Kind: ir.ArgInts, Ints: size}}
	return nil
}

// surelyContiguous reports a value whose memory is certainly contiguous: a graph input or a
// fresh result, possibly through views that keep contiguity (view, unsqueeze, squeeze).
// Stride-changing views (permute, transpose, slice, select, expand, split) make it unsure.
func surelyContiguous(v *ir.Value) bool {
	for v != nil && v.Producer != nil {
		n := v.Producer
		switch n.Target {
		case "aten.view.default", "aten.alias.default", "aten.detach.default", "aten.unsqueeze.default",
			"aten.squeeze.dim", "aten.squeeze.dims", "aten.squeeze.default":
			if len(n.Args) == 0 || len(n.Args[0].Values) != 1 {
				return false
			}
			v = n.Args[0].Values[0]
		case "aten.permute.default", "aten.transpose.int", "aten.t.default", "aten.slice.Tensor",
			"aten.select.int", "aten.expand.default", "aten.split_with_sizes.default", "aten.split.Tensor",
			"aten.chunk.default", "aten.unbind.int", "aten.narrow.default", "aten.as_strided.default",
			"aten.diagonal.default", "aten.unfold.default":
			return false
		default:
			return true
		}
	}
	return true
}

// removeAssert drops _assert_tensor_metadata, as RemoveNonCoreAtenOpGraphAssertsPass does.
func removeAssert(g *ir.Graph, n *ir.Node, _ *strides) error {
	users := g.Users()
	for _, v := range n.Outputs {
		if v != nil && (len(users[v]) > 0 || g.IsGraphOutput(v)) {
			return fmt.Errorf("its result is used")
		}
	}
	g.RemoveNodes(map[*ir.Node]bool{n: true})
	return nil
}

func identity(k int) []int64 {
	out := make([]int64, k)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

func sizesOf(m *ir.TensorMeta) []int64 {
	out := make([]int64, len(m.Sizes))
	for i, d := range m.Sizes {
		out[i] = d.Size
	}
	return out
}

// decomposeMaxPool2d: max_pool2d(x, …) is max_pool2d_with_indices(x, …)[0]; the indices output
// stays unused (nil), as the emitter expects of a dropped output.
func decomposeMaxPool2d(_ *ir.Graph, n *ir.Node, _ *strides) error {
	if _, err := result(n); err != nil {
		return err
	}
	n.Target = "aten.max_pool2d_with_indices.default"
	n.Outputs = append(n.Outputs[:1:1], nil)
	return nil
}

// liftScalar adds an int64 scalar tensor constant to the graph, as lift_constant_tensor_pass
// names them (_lifted_tensor_constantN), listed before the user inputs.
func liftScalar(g *ir.Graph, k int64) *ir.Value {
	return liftConstant(g, ir.Int64, binary.LittleEndian.AppendUint64(nil, uint64(k)))
}

// liftConstant adds a 0-d tensor constant holding data (one element of dtype) as ExecuTorch's
// lift_constant_tensor_pass does: a persistent buffer named _lifted_tensor_constantN, N the
// number of buffers before it, placed before the first user input.
func liftConstant(g *ir.Graph, dtype ir.DType, data []byte) *ir.Value {
	buffers := 0
	for _, in := range g.Inputs {
		if in.Kind == ir.Buffer {
			buffers++
		}
	}
	name := ""
	for i := buffers; ; i++ {
		name = fmt.Sprintf("_lifted_tensor_constant%d", i)
		if _, taken := g.Value(name); !taken && g.Constants[name] == nil {
			break
		}
	}
	meta := ir.TensorMeta{DType: dtype}
	v := g.NewValue(name, &meta, nil)
	g.Constants[name] = &ir.Constant{Meta: meta, Data: data}
	spec := ir.InputSpec{Kind: ir.Buffer, Value: v, Target: name, Persistent: true}
	at := len(g.Inputs)
	for i, in := range g.Inputs {
		if in.Kind == ir.UserInput {
			at = i
			break
		}
	}
	g.Inputs = slices.Insert(g.Inputs, at, spec)
	return v
}
