package configs

import "github.com/etgo/etgo/ir"

// Facts is what configs ask of the graph being partitioned (ExecuTorch's checks ask the
// ExportedProgram): which values are static constants, and who reads each value.
type Facts struct {
	Graph  *ir.Graph
	params map[*ir.Value]bool
	users  map[*ir.Value][]*ir.Node
}

// NewFacts indexes g once.
func NewFacts(g *ir.Graph) *Facts {
	f := &Facts{Graph: g, params: map[*ir.Value]bool{}, users: g.Users()}
	for _, in := range g.Inputs {
		switch in.Kind {
		case ir.Parameter, ir.Buffer, ir.TensorConstant:
			f.params[in.Value] = true
		}
	}
	return f
}

// IsParam is ExecuTorch's is_param_node: a parameter, buffer or lifted constant.
func (f *Facts) IsParam(v *ir.Value) bool { return v != nil && f.params[v] }

// Users are the nodes reading v, in graph order.
func (f *Facts) Users(v *ir.Value) []*ir.Node { return f.users[v] }

// Read reports whether a node or the graph's outputs read v.
func (f *Facts) Read(v *ir.Value) bool { return len(f.users[v]) > 0 || f.Graph.IsGraphOutput(v) }

// SoleUser returns the only node reading v, or nil (also when v is a graph output).
func (f *Facts) SoleUser(v *ir.Value) *ir.Node {
	if v == nil || len(f.users[v]) != 1 || f.Graph.IsGraphOutput(v) {
		return nil
	}
	return f.users[v][0]
}

// OnlyFirstOutputRead is the "every user is getitem[0]" rule: of a multi-output node, only
// the first result is read.
func (f *Facts) OnlyFirstOutputRead(n *ir.Node) bool {
	for i, v := range n.Outputs {
		if i > 0 && v != nil && f.Read(v) {
			return false
		}
	}
	return true
}
