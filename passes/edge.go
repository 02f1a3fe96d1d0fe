package passes

//go:generate sh -c "python3 ../tools/reference/generate_core_aten.py && gofmt -w coreaten_gen.go"

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/etgo/etgo/ir"
)

// ErrNotEdge is wrapped when a graph holds an operator outside the Edge dialect.
var ErrNotEdge = errors.New("not an Edge-dialect graph")

// edgeDialectOps are ExecuTorch's own operators that Edge graphs may hold besides core ATen.
var edgeDialectOps = map[string]bool{
	"dim_order_ops._to_dim_order_copy.default": true,
	"dim_order_ops._clone_dim_order.default":   true,
	"executorch_call_delegate":                 true,
}

// IsEdgeOp reports whether target belongs to the Edge dialect: a core ATen operator, the _copy
// form of a core ATen view (views are replaced by copies), or one of ExecuTorch's dim-order ops.
func IsEdgeOp(target string) bool {
	if coreATen[target] || edgeDialectOps[target] {
		return true
	}
	ns, rest, _ := strings.Cut(target, ".")
	op, overload, _ := strings.Cut(rest, ".")
	base, isCopy := strings.CutSuffix(op, "_copy")
	return ns == "aten" && isCopy && viewOps[base] && coreATen["aten."+base+"."+overload]
}

// VerifyEdge checks that every node of g calls an Edge operator or one of keep (the operators
// partitioners asked to keep whole). The error names the first node that does not.
func VerifyEdge(g *ir.Graph, keep []string) error {
	for i, n := range g.Nodes {
		if !IsEdgeOp(n.Target) && !slices.Contains(keep, n.Target) {
			return fmt.Errorf("%w: node %d (%s) calls %s, which is not core ATen, no partitioner keeps it whole, and etgo has no decomposition for it yet",
				ErrNotEdge, i, n.Name, n.Target)
		}
	}
	return nil
}

// ToEdge lowers an exported ATen graph to the Edge dialect as far as etgo can: in-place ops
// become functional, operators with a decomposition are decomposed (except those in keep, which
// partitioners asked to keep whole), views become copies, dead nodes go, and the result is
// checked with VerifyEdge.
func ToEdge(g *ir.Graph, keep []string) ([]Report, error) {
	reports, err := NewManager(Functionalize{}, Decompose{Keep: keep}, ReplaceViewOps{}, DeadCodeElimination{}).Run(g)
	if err != nil {
		return reports, err
	}
	return reports, VerifyEdge(g, keep)
}
