package passes

import (
	"fmt"
	"strings"

	"github.com/etgo/etgo/ir"
)

// Functionalize replaces in-place operators (relu_, add_.Tensor, hardtanh_, …) with their
// functional forms, as torch.export's run_decompositions does before anything else: the node
// now produces a new value, and every later reader of the mutated tensor reads that value
// instead. Mutating a graph input (a user input, parameter or buffer) would need an input
// mutation in the signature and is refused.
type Functionalize struct{}

func (Functionalize) Name() string { return "Functionalize" }

func (Functionalize) Run(g *ir.Graph) (string, error) {
	inputs := map[*ir.Value]bool{}
	for _, in := range g.Inputs {
		inputs[in.Value] = true
	}
	changed := 0
	noops := map[*ir.Node]bool{}
	for i, n := range g.Nodes {
		if n.Target == "aten._native_batch_norm_legit.default" {
			// It updates its running statistics in place; functionalised, it becomes
			// _native_batch_norm_legit_functional, which is not core ATen, and the official
			// to_edge fails the same way.
			return "", fmt.Errorf("%w: node %s (%s) is training-mode batch norm, which updates its running statistics; export the model in eval mode",
				ErrNotEdge, n.Name, n.Target)
		}
		if n.Target == "aten.detach_.default" {
			// detach_ changes only autograd metadata: functionalised it is nothing, and its
			// readers read its argument (an alias would stay in the Edge graph).
			noops[n] = true
			continue
		}
		functional, ok := functionalForm(n.Target)
		if !ok {
			continue
		}
		if len(n.Args) == 0 || n.Args[0].Kind != ir.ArgTensor || len(n.Args[0].Values) != 1 || len(n.Outputs) != 1 || n.Outputs[0] == nil {
			return "", fmt.Errorf("node %s (%s): expected an in-place op on one tensor with one result", n.Name, n.Target)
		}
		self := n.Args[0].Values[0]
		if inputs[self] {
			return "", fmt.Errorf("node %s (%s) mutates the graph input %s; input mutation is not supported yet", n.Name, n.Target, self.Name)
		}
		n.Target = functional
		// Readers after this node saw the mutated tensor: they now read the result.
		for _, later := range g.Nodes[i+1:] {
			for ai := range later.Args {
				for vi, v := range later.Args[ai].Values {
					if v == self {
						later.Args[ai].Values[vi] = n.Outputs[0]
					}
				}
			}
		}
		for oi := range g.Outputs {
			if g.Outputs[oi].Value == self {
				g.Outputs[oi].Value = n.Outputs[0]
			}
		}
		changed++
	}
	for n := range noops {
		if len(n.Args) > 0 && len(n.Args[0].Values) == 1 && n.Args[0].Values[0] != nil {
			for _, out := range n.Outputs {
				if out != nil {
					g.ReplaceAllUses(out, n.Args[0].Values[0])
				}
			}
		}
	}
	if len(noops) > 0 {
		g.RemoveNodes(noops)
		changed += len(noops)
	}
	if changed == 0 {
		return "", nil
	}
	return fmt.Sprintf("replaced %d in-place op(s) with functional ones", changed), nil
}

// functionalForm maps "aten.relu_.default" to "aten.relu.default". copy_ has no functional
// form of that shape and is not an in-place op in this sense.
func functionalForm(target string) (string, bool) {
	parts := strings.Split(target, ".")
	if len(parts) != 3 || parts[0] != "aten" || !strings.HasSuffix(parts[1], "_") || strings.HasPrefix(parts[1], "_") || parts[1] == "copy_" {
		return "", false
	}
	return "aten." + strings.TrimSuffix(parts[1], "_") + "." + parts[2], true
}
