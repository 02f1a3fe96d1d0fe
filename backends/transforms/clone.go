package transforms

import (
	"slices"

	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/passes"
)

const (
	targetClone         = "aten.clone.default"
	targetCloneDimOrder = "dim_order_ops._clone_dim_order.default"

	// Memory formats as torch serialises them.
	memoryContiguous = 1
	memoryPreserve   = 4
)

// RemoveCloneOps drops identity clones (RemoveCloneOpsTransform): a clone that keeps the layout
// only copies, and a backend's graph needs no copy.
type RemoveCloneOps struct {
	// PreserveInputOutputCopies keeps a clone that copies a user input straight to an output,
	// for a backend that cannot pass an input through (XNNPACK's
	// preserve_input_output_copies).
	PreserveInputOutputCopies bool
}

func (RemoveCloneOps) Name() string { return "RemoveCloneOpsTransform" }

func (r RemoveCloneOps) Run(g *ir.Graph) (_ string, err error) {
	defer recovered(&err)
	ps := ParamsOf(g)
	removed := 0
	for _, n := range slices.Clone(g.Nodes) {
		if n.Target != targetClone && n.Target != targetCloneDimOrder || !IsIdentityClone(n) {
			continue
		}
		in, out := n.FirstTensorArg(), n.FirstOutput()
		if in == nil || out == nil {
			continue
		}
		if r.PreserveInputOutputCopies && in.Producer == nil && !ps.Is(in) && g.IsGraphOutput(out) {
			continue
		}
		g.ReplaceAllUses(out, in)
		g.RemoveNodes(map[*ir.Node]bool{n: true})
		removed++
	}
	return passes.Changes(removed, "removed %d identity clone(s)"), nil
}

// IsIdentityClone reports a clone that keeps the (contiguous) layout of etgo's tensors.
func IsIdentityClone(n *ir.Node) bool {
	if n.Target == targetClone {
		a := n.Arg("memory_format")
		return a == nil || a.Kind != ir.ArgMemoryFormat || a.Int == memoryContiguous || a.Int == memoryPreserve
	}
	order := n.IntsArg("dim_order", nil)
	for i, d := range order {
		if d != int64(i) {
			return false
		}
	}
	return true
}
