package passes

import (
	"fmt"
	"strings"

	"github.com/etgo/etgo/ir"
)

// viewOps are the ATen view operators Edge replaces with their copying forms (ExecuTorch's
// ReplaceViewOpsWithViewCopyOpsPass): aten.X.overload becomes aten.X_copy.overload. unfold is
// not among them: the official conversion leaves it, and then refuses it as not core ATen.
var viewOps = map[string]bool{
	"view": true, "expand": true, "permute": true, "slice": true, "select": true, "unsqueeze": true,
	"squeeze": true, "transpose": true, "t": true, "alias": true, "split": true, "split_with_sizes": true,
	"unbind": true, "diagonal": true, "as_strided": true, "detach": true, "narrow": true,
}

// ReplaceViewOps turns view operators into their _copy forms, as to_edge does: the Edge dialect
// (and the kernels) has no aliasing views.
type ReplaceViewOps struct{}

func (ReplaceViewOps) Name() string { return "ReplaceViewOpsWithViewCopyOpsPass" }

func (ReplaceViewOps) Run(g *ir.Graph) (string, error) {
	n := 0
	for _, node := range g.Nodes {
		ns, rest, ok := strings.Cut(node.Target, ".")
		if !ok || ns != "aten" {
			continue
		}
		op, overload, _ := strings.Cut(rest, ".")
		if !viewOps[op] {
			continue
		}
		node.Target = "aten." + op + "_copy." + overload
		n++
	}
	if n == 0 {
		return "", nil
	}
	return fmt.Sprintf("replaced %d view op(s) with copies", n), nil
}
