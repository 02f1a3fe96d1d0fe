package aot

import (
	"fmt"
	"math"
	"slices"

	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/passes"
)

// The graph passes of vulkan_preprocess that change fp32 programs, run on etgo's graph before it
// becomes the FX-like graph the later stages use. Each keeps the node in the place of the one
// it rewrites, as the FX passes insert theirs.

const (
	tLinear    = "aten.linear.default"
	tConv      = "aten.convolution.default"
	tConvClamp = "et_vk.conv_with_clamp.default"
	tView      = "aten.view_copy.default"
	tClone     = "aten.clone.default"
	tPrepack   = "et_vk.prepack.default"
)

// users counts FX users: distinct nodes reading v, plus the output node when v is an output.
func fxUsers(g *ir.Graph, users map[*ir.Value][]*ir.Node, v *ir.Value) int {
	n := len(slices.Compact(slices.Clone(users[v])))
	if g.IsGraphOutput(v) {
		n++
	}
	return n
}

// dce removes nodes none of whose outputs is read or returned (eliminate_dead_code).
func dce(g *ir.Graph) int {
	removed := 0
	for {
		users := g.Users()
		dead := map[*ir.Node]bool{}
		for _, n := range g.Nodes {
			live := false
			for _, v := range n.Outputs {
				if v != nil && (len(users[v]) > 0 || g.IsGraphOutput(v)) {
					live = true
				}
			}
			if !live {
				dead[n] = true
			}
		}
		if len(dead) == 0 {
			return removed
		}
		removed += len(dead)
		g.RemoveNodes(dead)
	}
}

// addmmToLinear is AddmmToLinearTransform: addmm(bias, x, permute(w)) becomes linear(x, w,
// bias) and mm(x, permute(w)) linear(x, w); a view_copy after a linear that keeps its shape is
// dropped.
type addmmToLinear struct{}

func (addmmToLinear) Name() string { return "AddmmToLinearTransform" }

func (addmmToLinear) Run(g *ir.Graph) (string, error) {
	changed := 0
	for _, n := range g.Nodes {
		var x, wt, bias *ir.Value
		switch n.Target {
		case "aten.addmm.default":
			bias, x, wt = n.TensorArg("self"), n.TensorArg("mat1"), n.TensorArg("mat2")
		case "aten.mm.default":
			x, wt = n.TensorArg("self"), n.TensorArg("mat2")
		default:
			continue
		}
		if x == nil || wt == nil || wt.Producer == nil || (wt.Producer.Target != "aten.t_copy.default" && wt.Producer.Target != "aten.permute_copy.default") {
			continue
		}
		if n.Target == "aten.addmm.default" && (bias == nil || n.Arg("beta") != nil || n.Arg("alpha") != nil) {
			return "", unsupported("node %s: addmm with beta or alpha", n.Name)
		}
		w := wt.Producer.FirstTensorArg()
		if w == nil {
			continue
		}
		args := []ir.Arg{{Name: "input", Kind: ir.ArgTensor, Values: []*ir.Value{x}}, {Name: "weight", Kind: ir.ArgTensor, Values: []*ir.Value{w}}}
		if bias != nil {
			args = append(args, ir.Arg{Name: "bias", Kind: ir.ArgTensor, Values: []*ir.Value{bias}})
		}
		n.Target, n.Args = tLinear, args
		changed++
	}
	// replace_linear_view_copy_input_output, without the dequantize part (no quantized graph
	// gets here).
	users := g.Users()
	for _, n := range g.Nodes {
		if n.Target != tLinear || len(n.Outputs) != 1 || n.Outputs[0] == nil {
			continue
		}
		out := n.Outputs[0]
		if fxUsers(g, users, out) != 1 || len(users[out]) != 1 {
			continue
		}
		u := users[out][0]
		if u.Target == tView && u.FirstOutput() != nil && sameShape(u.FirstOutput().Meta.Sizes, out.Meta.Sizes) {
			g.ReplaceAllUses(u.FirstOutput(), out)
			changed++
		}
	}
	dce(g)
	return passes.Changes(changed, "%d addmm/mm as linear"), nil
}

// fuseClamp is FuseClampPass: a convolution whose only user is a relu or hardtanh becomes
// et_vk.conv_with_clamp with the activation's bounds.
type fuseClamp struct{}

func (fuseClamp) Name() string { return "FuseClampPass" }

func (fuseClamp) Run(g *ir.Graph) (string, error) {
	fused := 0
	for _, act := range slices.Clone(g.Nodes) {
		if act.Target != "aten.relu.default" && act.Target != "aten.hardtanh.default" {
			continue
		}
		in := act.FirstTensorArg()
		if in == nil || in.Producer == nil || in.Producer.Target != tConv {
			continue
		}
		conv := in.Producer
		users := g.Users()
		if fxUsers(g, users, in) != 1 {
			continue
		}
		lo := ir.Arg{Name: "output_min", Kind: ir.ArgFloat, Float: 0}
		hi := ir.Arg{Name: "output_max", Kind: ir.ArgFloat, Float: math.MaxFloat64}
		if act.Target == "aten.hardtanh.default" {
			lo.Float, hi.Float = -1, 1
			mn, mx := posArg(act, 1), posArg(act, 2)
			if mn != nil {
				if mx == nil {
					return "", unsupported("node %s: hardtanh with min_val but no max_val", act.Name)
				}
				lo, hi = *mn, *mx
				lo.Name, hi.Name = "output_min", "output_max"
			}
		}
		out := act.FirstOutput()
		conv.Target = tConvClamp
		conv.Args = append(slices.Clone(conv.Args), lo, hi)
		conv.Outputs = []*ir.Value{out}
		out.Producer = conv
		g.RemoveNodes(map[*ir.Node]bool{act: true})
		fused++
	}
	return passes.Changes(fused, "%d convolution(s) with clamp"), nil
}

// removeRedundantOps is RemoveRedundantOpsTransform: copies that keep dtype and shape are
// replaced by their source.
type removeRedundantOps struct{}

var redundantOps = map[string]bool{
	"aten.clone.default": true, "aten.alias.default": true, "aten.alias_copy.default": true,
	"aten.lift_fresh_copy.default": true, "dim_order_ops._to_dim_order_copy.default": true,
	"dim_order_ops._clone_dim_order.default": true, "aten.expand_copy.default": true, "aten.copy.default": true,
}

func (removeRedundantOps) Name() string { return "RemoveRedundantOpsTransform" }

func (removeRedundantOps) Run(g *ir.Graph) (string, error) {
	removed := 0
	for _, n := range g.Nodes {
		if !redundantOps[n.Target] {
			continue
		}
		src := posTensor(n, 0)
		if n.Target == "aten.copy.default" {
			src = posTensor(n, 1)
		}
		out := n.FirstOutput()
		if src == nil || out == nil || out.Meta == nil || src.Meta.DType != out.Meta.DType || !sameShape(src.Meta.Sizes, out.Meta.Sizes) {
			continue
		}
		g.ReplaceAllUses(out, src)
		removed++
	}
	dce(g)
	return passes.Changes(removed, "removed %d redundant copies"), nil
}

// squeezeUnsqueezeInputs is SqueezeUnsqueezeInputs: a relu or gelu on a 3-D or 4-D tensor with
// inner unit dims runs on the tensor without them, between two view_copy nodes.
type squeezeUnsqueezeInputs struct{}

func (squeezeUnsqueezeInputs) Name() string { return "SqueezeUnsqueezeInputs" }

func shouldSqueeze(s []int64) bool {
	switch len(s) {
	case 3:
		return s[1] == 1 && s[0] > 1
	case 4:
		if s[0] == 1 && s[1] == 1 && s[2] == 1 {
			return false
		}
		if s[0] == 1 && s[1] == 1 && s[2] > 1 && s[3] > 1 {
			return false
		}
		if s[0] == 1 && s[1] > 1 && s[2] > 1 && s[3] > 1 {
			return false
		}
		return slices.Contains(s[:3], 1)
	}
	return false
}

func sizesOf(m *ir.TensorMeta) []int64 {
	out := make([]int64, len(m.Sizes))
	for i, d := range m.Sizes {
		out[i] = d.Size
	}
	return out
}

func dimsOf(s []int64) []ir.Dim {
	out := make([]ir.Dim, len(s))
	for i, x := range s {
		out[i] = ir.Dim{Size: x}
	}
	return out
}

func (squeezeUnsqueezeInputs) Run(g *ir.Graph) (string, error) {
	changed := 0
	var nodes []*ir.Node
	for _, n := range g.Nodes {
		if (n.Target != "aten.relu.default" && n.Target != "aten.gelu.default") || n.FirstTensorArg() == nil || !shouldSqueeze(sizesOf(n.FirstTensorArg().Meta)) {
			nodes = append(nodes, n)
			continue
		}
		in, out := n.FirstTensorArg(), n.FirstOutput()
		sq := sizesOf(in.Meta)
		for len(sq) > 2 && slices.Contains(sq, 1) {
			i := slices.Index(sq, 1)
			sq = slices.Delete(sq, i, i+1)
		}
		mk := func(name string, dt ir.DType, s []int64) (*ir.Value, error) {
			v := &ir.Value{Name: name, Kind: ir.TensorValue, Meta: &ir.TensorMeta{DType: dt, Sizes: dimsOf(s)}}
			return v, g.AddValue(v)
		}
		sqv, err := mk(n.Name+"_vk_squeeze", in.Meta.DType, sq)
		if err != nil {
			return "", err
		}
		actv, err := mk(n.Name+"_vk_squeezed", out.Meta.DType, sq)
		if err != nil {
			return "", err
		}
		view1 := &ir.Node{Name: sqv.Name, Target: tView, Outputs: []*ir.Value{sqv}, DebugHandle: n.DebugHandle,
			Args: []ir.Arg{{Name: "self", Kind: ir.ArgTensor, Values: []*ir.Value{in}}, {Name: "size", Kind: ir.ArgInts, Ints: sq}}}
		sqv.Producer = view1
		for i := range n.Args {
			if n.Args[i].Kind == ir.ArgTensor && len(n.Args[i].Values) == 1 && n.Args[i].Values[0] == in {
				n.Args[i].Values = []*ir.Value{sqv}
				break
			}
		}
		n.Outputs = []*ir.Value{actv}
		actv.Producer = n
		view2 := &ir.Node{Name: n.Name + "_vk_unsqueeze", Target: tView, Outputs: []*ir.Value{out}, DebugHandle: n.DebugHandle,
			Args: []ir.Arg{{Name: "self", Kind: ir.ArgTensor, Values: []*ir.Value{actv}}, {Name: "size", Kind: ir.ArgInts, Ints: sizesOf(out.Meta)}}}
		out.Producer = view2
		nodes = append(nodes, view1, n, view2)
		changed++
	}
	g.Nodes = nodes
	return passes.Changes(changed, "%d activation(s) squeezed"), nil
}

// unaryElementwise are FuseViewCopyTransform's UNARY_ELEMENTWISE_OPS.
var unaryElementwise = map[string]bool{
	"aten.alias_copy.default": true, "aten.clone.default": true, "dim_order_ops._clone_dim_order.default": true,
	"aten._to_copy.default": true, "dim_order_ops._to_dim_order_copy.default": true,
	"quantized_decomposed.quantize_per_tensor.default": true, "quantized_decomposed.dequantize_per_tensor.default": true,
	"aten.abs.default": true, "aten.clamp.default": true, "aten.ceil.default": true, "aten.floor.default": true,
	"aten.neg.default": true, "aten.relu.default": true, "aten.round.default": true, "aten.sigmoid.default": true,
	"aten.silu.default": true, "aten.sqrt.default": true, "aten.tanh.default": true, "aten.sign.default": true,
	"aten.reciprocal.default": true, "aten.gelu.default": true, "aten.rsqrt.default": true, "aten.exp.default": true,
	"aten.log.default": true,
}

// fuseViewCopy is FuseViewCopyTransform: a view_copy followed, through a single-user chain of
// unary elementwise operators, by later view_copy nodes takes the last one's shape and the
// later ones are bypassed.
type fuseViewCopy struct{}

func (fuseViewCopy) Name() string { return "FuseViewCopyTransform" }

func (fuseViewCopy) Run(g *ir.Graph) (string, error) {
	fused := 0
	var views []*ir.Node
	for _, n := range g.Nodes {
		if n.Target == tView {
			views = append(views, n)
		}
	}
	for _, v := range views {
		users := g.Users()
		var chain, later []*ir.Node
		end := v
		for {
			if end.Target != tView && !unaryElementwise[end.Target] {
				break
			}
			o := end.FirstOutput()
			if o == nil || fxUsers(g, users, o) != 1 || len(users[o]) != 1 {
				break
			}
			u := users[o][0]
			if u.Target != tView && !unaryElementwise[u.Target] {
				break
			}
			if u.Target == tView {
				later = append(later, u)
			} else {
				chain = append(chain, u)
			}
			end = u
		}
		if len(later) == 0 {
			continue
		}
		final := later[len(later)-1]
		size := final.Arg("size")
		if size == nil {
			return "", fmt.Errorf("vulkan: view_copy %s has no size", final.Name)
		}
		for i := range v.Args {
			if v.Args[i].Name == "size" {
				v.Args[i] = *size
			}
		}
		shape := final.FirstOutput().Meta.Sizes
		v.FirstOutput().Meta = &ir.TensorMeta{DType: v.FirstOutput().Meta.DType, Sizes: slices.Clone(shape)}
		for _, c := range chain {
			o := c.FirstOutput()
			o.Meta = &ir.TensorMeta{DType: o.Meta.DType, Sizes: slices.Clone(shape)}
		}
		for _, l := range later {
			g.ReplaceAllUses(l.FirstOutput(), l.FirstTensorArg())
		}
		dce(g)
		fused++
	}
	return passes.Changes(fused, "%d view_copy chain(s) fused"), nil
}

// viewCopyToSqueezeUnsqueeze is ViewCopyToSqueezeUnsqueezePass: a view_copy that only removes
// unit dims becomes squeeze_copy.dims, one that only adds one (not at dim 0: the official
// pass tests the dim's truth) unsqueeze_copy.
type viewCopyToSqueezeUnsqueeze struct{}

func (viewCopyToSqueezeUnsqueeze) Name() string { return "ViewCopyToSqueezeUnsqueezePass" }

func findSqueezeDims(in, view []int64) []int64 {
	if len(in) <= len(view) {
		return nil
	}
	i, j := 0, 0
	var idx []int64
	for i < len(in) && j < len(view) {
		switch {
		case in[i] == view[j]:
			i++
			j++
		case in[i] == 1:
			idx = append(idx, int64(i))
			i++
		default:
			return nil
		}
	}
	if i < len(in) || j < len(view) {
		return nil
	}
	return idx
}

func findUnsqueezeDim(in, view []int64) (int64, bool) {
	if len(view)-len(in) != 1 {
		return 0, false
	}
	i, j := 0, 0
	idx := int64(-1)
	for j < len(view) {
		if i == j && j == len(in) {
			if view[j] != 1 {
				return 0, false
			}
		} else if in[i] != view[j] {
			if view[j] == 1 {
				idx = int64(j)
				i--
			} else {
				return 0, false
			}
		}
		i++
		j++
	}
	return idx, true
}

func (viewCopyToSqueezeUnsqueeze) Run(g *ir.Graph) (string, error) {
	changed := 0
	for _, n := range g.Nodes {
		if n.Target != tView {
			continue
		}
		in := n.FirstTensorArg()
		size := n.Arg("size")
		if in == nil || size == nil {
			continue
		}
		shape := sizesOf(in.Meta)
		if dims := findSqueezeDims(shape, size.Ints); len(dims) > 0 {
			n.Target = "aten.squeeze_copy.dims"
			n.Args = []ir.Arg{{Name: "self", Kind: ir.ArgTensor, Values: []*ir.Value{in}}, {Name: "dim", Kind: ir.ArgInts, Ints: dims}}
			changed++
			continue
		}
		if d, ok := findUnsqueezeDim(shape, size.Ints); ok && d != 0 {
			n.Target = "aten.unsqueeze_copy.default"
			n.Args = []ir.Arg{{Name: "self", Kind: ir.ArgTensor, Values: []*ir.Value{in}}, {Name: "dim", Kind: ir.ArgInt, Int: d}}
			changed++
		}
	}
	return passes.Changes(changed, "%d view_copy as squeeze/unsqueeze"), nil
}
