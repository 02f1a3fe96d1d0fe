package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// RemoveNoopExpandCopy is ExecuTorch's RemoveNoopExpandCopyPass: an aten.expand_copy whose
// output has its input's dtype and sizes is an identity, so its users read the input instead
// and the node goes (static shape specialisation leaves such expands between delegates, where
// they split regions). Then dead code is eliminated, as the reference does.
type RemoveNoopExpandCopy struct{}

func (RemoveNoopExpandCopy) Name() string { return "RemoveNoopExpandCopyPass" }

func (RemoveNoopExpandCopy) Run(g *ir.Graph) (string, error) {
	removed := 0
	for _, n := range g.Nodes {
		if n.Target != "aten.expand_copy.default" || len(n.Args) == 0 || len(n.Outputs) != 1 {
			continue
		}
		in, out := firstTensor(n), n.Outputs[0]
		if in == nil || out == nil || in.Meta == nil || out.Meta == nil || !sameMeta(in.Meta, out.Meta) {
			continue
		}
		g.ReplaceAllUses(out, in)
		removed++
	}
	if removed == 0 {
		return "", nil
	}
	dce, err := DeadCodeElimination{}.Run(g)
	if err != nil {
		return "", err
	}
	s := fmt.Sprintf("rewired %d no-op expand_copy node(s)", removed)
	if dce != "" {
		s += "; " + dce
	}
	return s, nil
}

func firstTensor(n *ir.Node) *ir.Value {
	for _, a := range n.Args {
		if a.Kind == ir.ArgTensor && len(a.Values) == 1 {
			return a.Values[0]
		}
	}
	return nil
}

func sameMeta(a, b *ir.TensorMeta) bool {
	if a.DType != b.DType || len(a.Sizes) != len(b.Sizes) {
		return false
	}
	for i := range a.Sizes {
		if a.Sizes[i] != b.Sizes[i] {
			return false
		}
	}
	return true
}
