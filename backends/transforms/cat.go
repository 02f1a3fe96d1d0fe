package transforms

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/passes"
)

const targetCat = "aten.cat.default"

// DecomposeConcatenate splits a concatenation of more than MaxInputs tensors into a chain of
// at most MaxInputs each (DecomposeConcatenate: XNNPACK's concatenate takes 2 to 5 inputs): the
// first MaxInputs, then their result with the next ones, and so on.
type DecomposeConcatenate struct{ MaxInputs int }

func (DecomposeConcatenate) Name() string { return "DecomposeConcatenate" }

func (d DecomposeConcatenate) Run(g *ir.Graph) (_ string, err error) {
	defer recovered(&err)
	if d.MaxInputs < 2 {
		return "", fmt.Errorf("a chain of concatenations of %d inputs each never ends", d.MaxInputs)
	}
	split := 0
	for i := 0; i < len(g.Nodes); i++ {
		n := g.Nodes[i]
		if n.Target != targetCat {
			continue
		}
		a := n.Arg("tensors")
		if a == nil || len(a.Values) <= d.MaxInputs {
			continue
		}
		out := n.FirstOutput()
		dim := n.IntArg("dim", 0)
		r := out.Rank()
		if dim < 0 {
			dim += int64(r)
		}
		if dim < 0 || int(dim) >= r {
			return "", fmt.Errorf("node %s: cat dim %d out of range", n.Name, n.IntArg("dim", 0))
		}
		head, rest := a.Values[:d.MaxInputs], a.Values[d.MaxInputs:]
		sizes := slices.Clone(out.Meta.Sizes)
		var total int64
		for _, v := range head {
			total += v.Meta.Sizes[dim].Size
		}
		sizes[dim] = ir.Dim{Size: total}
		part := g.NewValue(out.Name+"_part", &ir.TensorMeta{DType: out.Meta.DType, Sizes: sizes}, n)
		a.Values = slices.Clone(head)
		n.Outputs[0] = part
		tail := &ir.Node{Name: n.Name + "_rest", Target: targetCat, Args: []ir.Arg{
			{Name: "tensors", Kind: ir.ArgTensors, Values: append([]*ir.Value{part}, rest...)},
			{Name: "dim", Kind: ir.ArgInt, Int: dim},
		}, Outputs: []*ir.Value{out}}
		out.Producer = tail
		tail.DebugHandle = n.DebugHandle
		g.Nodes = slices.Insert(g.Nodes, i+1, tail)
		split++
	}
	return passes.Changes(split, fmt.Sprintf("split %%d concatenation(s) into chains of at most %d inputs", d.MaxInputs)), nil
}
