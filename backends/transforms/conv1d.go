package transforms

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/passes"
)

// Conv1dUnsqueeze runs a 1-d convolution as a 2-d one (Conv1dUnsqueezePass), for a backend
// that has only the 2-d kind: the input gains a trailing unit dimension, the kernel too, and
// the result loses it again.
type Conv1dUnsqueeze struct{}

func (Conv1dUnsqueeze) Name() string { return "Conv1dUnsqueezePass" }

func (Conv1dUnsqueeze) Run(g *ir.Graph) (_ string, err error) {
	defer recovered(&err)
	ps := ParamsOf(g)
	rewritten := 0
	for i := 0; i < len(g.Nodes); i++ {
		n := g.Nodes[i]
		w := n.TensorArg("weight")
		if n.Target != targetConv || w.Rank() != 3 {
			continue
		}
		c := ps.Data(w)
		if c == nil {
			return "", fmt.Errorf("node %s: a conv1d weight must be a constant", n.Name)
		}
		w4 := ps.Add(w.Name+"_unsqueezed", ir.TensorMeta{DType: c.Meta.DType, Sizes: append(slices.Clone(c.Meta.Sizes), ir.Dim{Size: 1})}, c.Data)
		n.SetTensorArg("weight", w4)
		for _, a := range []struct {
			name      string
			def, fill int64
		}{{"stride", 1, 1}, {"padding", 0, 0}, {"dilation", 1, 1}, {"output_padding", 0, 0}} {
			vals := n.IntsArg(a.name, nil)
			if len(vals) == 0 {
				vals = []int64{a.def}
			}
			n.SetIntsArg(a.name, append(slices.Clone(vals), a.fill))
		}
		i = withUnitDim(g, i, n, "input", -1, n.Name, "_4d")
		rewritten++
	}
	return summary(passes.Changes(rewritten, "ran %d 1-d convolution(s) as 2-d"),
		passes.Changes(ps.DropUnused(), "dropped %d unused parameter(s)")), nil
}
