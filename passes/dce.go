package passes

import (
	"fmt"
	"strings"

	"github.com/etgo/etgo/ir"
)

// DeadCodeElimination removes nodes none of whose outputs is used by another node or by the
// graph's outputs, unless the operator mutates its arguments (an in-place op, named with a
// trailing underscore, or copy_), whose effect is the point.
type DeadCodeElimination struct{}

func (DeadCodeElimination) Name() string { return "DeadCodeElimination" }

func (DeadCodeElimination) Run(g *ir.Graph) (string, error) {
	total := 0
	for {
		users := g.Users()
		dead := map[*ir.Node]bool{}
		for _, n := range g.Nodes {
			if mutates(n.Target) || sideEffects[n.Target] {
				continue
			}
			used := false
			for _, v := range n.Outputs {
				if v != nil && (len(users[v]) > 0 || g.IsGraphOutput(v)) {
					used = true
				}
			}
			if !used {
				dead[n] = true
			}
		}
		if len(dead) == 0 {
			break
		}
		g.RemoveNodes(dead)
		total += len(dead)
	}
	if total == 0 {
		return "", nil
	}
	return fmt.Sprintf("removed %d dead node(s)", total), nil
}

// sideEffects are operators kept for what they do rather than what they return (torch.fx's
// side-effectful ops): a runtime assertion has no result and must not be eliminated.
var sideEffects = map[string]bool{"aten._assert_async.msg": true, "aten._assert_async.default": true,
	"aten._assert_scalar.default": true, "aten.sym_constrain_range.default": true,
	"aten.sym_constrain_range_for_size.default": true}

// mutates reports an in-place operator: "aten.add_.Tensor", "aten.copy_.default".
func mutates(target string) bool {
	parts := strings.Split(target, ".")
	return len(parts) >= 2 && strings.HasSuffix(parts[1], "_")
}
