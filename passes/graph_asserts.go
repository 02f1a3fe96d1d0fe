package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// RemoveGraphAsserts drops the runtime assertions an Edge graph may hold (_assert_async,
// _assert_scalar, the symbolic range constraints), as to_executorch's RemoveGraphAssertsPass
// does: ExecuTorch's runtime has no kernels for them.
type RemoveGraphAsserts struct{}

func (RemoveGraphAsserts) Name() string { return "RemoveGraphAssertsPass" }

var graphAsserts = map[string]bool{
	"aten._assert_async.msg": true, "aten._assert_scalar.default": true, "aten._assert_tensor_metadata.default": true,
	"aten.sym_constrain_range_for_size.default": true, "aten.sym_constrain_range.default": true,
}

func (RemoveGraphAsserts) Run(g *ir.Graph) (string, error) {
	dead := map[*ir.Node]bool{}
	for _, n := range g.Nodes {
		if graphAsserts[n.Target] {
			dead[n] = true
		}
	}
	if len(dead) == 0 {
		return "", nil
	}
	g.RemoveNodes(dead)
	if _, err := (DeadCodeElimination{}).Run(g); err != nil {
		return "", err
	}
	return fmt.Sprintf("removed %d assertion(s)", len(dead)), nil
}
