package passes

import (
	"fmt"
	"slices"

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
	if removed == 0 && pruned == 0 {
		return "", nil
	}
	return fmt.Sprintf("removed %d no-op copies, pruned %d empty cat inputs", removed, pruned), nil
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
