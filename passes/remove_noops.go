package passes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/etgo/etgo/ir"
)

// RemoveNoops drops what to_edge's RemoveNoopPass, PruneEmptyTensorsPass and RemoveToCopyPass
// drop: a slice_copy that keeps its input's static shape, a _to_copy that changes neither
// dtype, shape nor layout, and empty tensors among cat's inputs (a cat of nothing but empty
// tensors becomes a full of zeros). It runs after views became copies, before MemoryFormatOps.
type RemoveNoops struct{}

func (RemoveNoops) Name() string { return "RemoveNoops" }

func (RemoveNoops) Run(g *ir.Graph) (string, error) {
	removed, pruned := 0, 0
	for _, n := range slices.Clone(g.Nodes) {
		switch n.Target {
		case "aten.slice_copy.Tensor", "aten._to_copy.default":
			in := n.TensorArg("self")
			if in == nil || in.Meta == nil || len(n.Outputs) != 1 || n.Outputs[0] == nil || n.Outputs[0].Meta == nil {
				continue
			}
			out := n.Outputs[0].Meta
			if !in.Meta.IsStatic() || !out.IsStatic() || !slices.Equal(sizesOf(in.Meta), sizesOf(out)) {
				continue
			}
			if n.Target == "aten._to_copy.default" && (in.Meta.DType != out.DType || !sameOrder(in.Meta, n)) {
				continue
			}
			forward(g, n, in)
			removed++
		case "aten.cat.default":
			a := n.Arg("tensors")
			if a == nil || a.Kind != ir.ArgTensors {
				continue
			}
			kept := a.Values[:0:0]
			for _, v := range a.Values {
				if v.Meta != nil && v.Meta.IsStatic() {
					if k, _ := numel(v.Meta.Sizes); k == 0 {
						continue
					}
				}
				kept = append(kept, v)
			}
			if len(kept) == len(a.Values) {
				continue
			}
			pruned += len(a.Values) - len(kept)
			if len(kept) > 0 {
				a.Values = kept
				continue
			}
			out := n.Outputs[0]
			if out == nil || out.Meta == nil || !out.Meta.IsStatic() {
				return "", fmt.Errorf("node %s: a cat of empty tensors with a symbolic result", n.Name)
			}
			n.Target = "aten.full.default"
			n.Args = []ir.Arg{Is("size", sizesOf(out.Meta)...), I("fill_value", 0), Dt("dtype", out.Meta.DType)}
		}
	}
	pairs := eliminateDqQ(g)
	if removed == 0 && pruned == 0 && pairs == 0 {
		return "", nil
	}
	s := fmt.Sprintf("removed %d no-op copies, pruned %d empty cat inputs", removed, pruned)
	if pairs > 0 {
		s += fmt.Sprintf(", %d dequantize→quantize pair(s)", pairs)
	}
	return s, nil
}

// eliminateDqQ is RemoveNoopPass's eliminate_dq_q: a dequantize read directly by a quantize
// with the same parameters (what is left of dq → dropout → q once the dropout, a no-op outside
// training, is gone) is the identity on the quantized tensor, so the quantize's readers read
// the dequantize's input. The official pass looks only at the dequantize inputs of the no-ops
// it removes; etgo has removed them while decomposing, and a PT2E graph has no other direct
// dq → q.
func eliminateDqQ(g *ir.Graph) int {
	pairs := 0
	for _, q := range slices.Clone(g.Nodes) {
		if !dqQOps[q.Target] || !strings.HasPrefix(q.Target, "quantized_decomposed.quantize_") {
			continue
		}
		in := q.FirstTensorArg()
		if in == nil || in.Producer == nil || len(q.Outputs) != 1 || q.Outputs[0] == nil {
			continue
		}
		dq := in.Producer
		if !dqQOps[dq.Target] || !strings.HasPrefix(dq.Target, "quantized_decomposed.dequantize_") || !sameQParams(dq, q) {
			continue
		}
		src := dq.FirstTensorArg()
		if src == nil {
			continue
		}
		g.ReplaceAllUses(q.Outputs[0], src)
		g.RemoveNodes(map[*ir.Node]bool{q: true})
		pairs++
	}
	return pairs
}

var dqQOps = map[string]bool{
	"quantized_decomposed.quantize_per_tensor.default": true, "quantized_decomposed.quantize_per_channel.default": true,
	"quantized_decomposed.dequantize_per_tensor.default": true, "quantized_decomposed.dequantize_per_channel.default": true,
}

// sameQParams compares the positional arguments after the input, as the official pass
// compares node.args[1:] (keyword-only ones, such as out_dtype, are not among them).
func sameQParams(a, b *ir.Node) bool {
	pos := func(n *ir.Node) []ir.Arg {
		var out []ir.Arg
		for _, x := range n.Args {
			if !x.KwargOnly {
				out = append(out, x)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out[1:]
	}
	pa, pb := pos(a), pos(b)
	if len(pa) != len(pb) {
		return false
	}
	for i := range pa {
		x, y := pa[i], pb[i]
		if x.Kind != y.Kind || x.Int != y.Int || x.Float != y.Float || !slices.Equal(x.Values, y.Values) {
			return false
		}
	}
	return true
}

// sameOrder reports that a _to_copy keeps its input's memory format (none asked, preserve, or
// the input's own).
func sameOrder(in *ir.TensorMeta, n *ir.Node) bool {
	a := n.Arg("memory_format")
	if a == nil || a.Kind != ir.ArgMemoryFormat || a.Int == memoryFormatPreserve {
		return true
	}
	order, err := dimOrderOf(a.Int, len(in.Sizes), in)
	return err == nil && slices.Equal(order, in.Order())
}
