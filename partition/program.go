package partition

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// inputSpecs returns the graph-input specs of vals, in order (a zero spec for a value that is not
// a graph input).
func inputSpecs(g *ir.Graph, vals []*ir.Value) []ir.InputSpec {
	out := make([]ir.InputSpec, len(vals))
	for i, v := range vals {
		for _, in := range g.Inputs {
			if in.Value == v {
				out[i] = in
				break
			}
		}
	}
	return out
}

// Program returns the delegate's region as a graph of its own, the program a backend's
// preprocess compiles (ExecuTorch's create_exported_program_from_submodule): the owned
// constants are its parameters, buffers or constants, with their data from parent; the call's
// inputs are its user inputs, in the call's order; the call's outputs are its outputs, in the
// call's order. Nodes and values are copies, so a backend may rewrite the graph freely.
func (d *Delegate) Program(parent *ir.Graph) (*ir.Graph, error) {
	g := ir.NewGraph()
	g.Ranges = parent.Ranges
	vals := map[*ir.Value]*ir.Value{}
	clone := func(v *ir.Value, producer *ir.Node) (*ir.Value, error) {
		c := &ir.Value{Name: v.Name, Kind: v.Kind, Meta: v.Meta, Producer: producer}
		if err := g.AddValue(c); err != nil {
			return nil, err
		}
		vals[v] = c
		return c, nil
	}
	if len(d.ConstantSpecs) != len(d.Region.Constants) {
		return nil, fmt.Errorf("partition: delegate %s: %d constant specs for %d constants", d.Call.Name, len(d.ConstantSpecs), len(d.Region.Constants))
	}
	for i, v := range d.Region.Constants {
		spec := d.ConstantSpecs[i]
		c, ok := parent.Constants[spec.Target]
		if spec.Value != v || !ok {
			return nil, fmt.Errorf("partition: delegate %s: constant %s has no data", d.Call.Name, v.Name)
		}
		nv, err := clone(v, nil)
		if err != nil {
			return nil, err
		}
		g.Constants[spec.Target] = c
		g.Inputs = append(g.Inputs, ir.InputSpec{Kind: spec.Kind, Value: nv, Target: spec.Target, Persistent: spec.Persistent})
	}
	if len(d.Call.Args) != 1 {
		return nil, fmt.Errorf("partition: delegate %s: call has %d arguments, want 1", d.Call.Name, len(d.Call.Args))
	}
	for _, v := range d.Call.Args[0].Values {
		if _, dup := vals[v]; dup {
			continue
		}
		nv, err := clone(v, nil)
		if err != nil {
			return nil, err
		}
		g.Inputs = append(g.Inputs, ir.InputSpec{Kind: ir.UserInput, Value: nv})
	}
	for _, n := range d.Region.Nodes {
		c := &ir.Node{Name: n.Name, Target: n.Target, ListOutput: n.ListOutput, StackTrace: n.StackTrace, ModuleStack: n.ModuleStack}
		c.Args = make([]ir.Arg, len(n.Args))
		for ai, a := range n.Args {
			c.Args[ai] = a
			if a.Values == nil {
				continue
			}
			c.Args[ai].Values = make([]*ir.Value, len(a.Values))
			for vi, v := range a.Values {
				if v == nil {
					continue
				}
				nv, ok := vals[v]
				if !ok {
					return nil, fmt.Errorf("partition: delegate %s: node %s reads %s, which is neither an input of the call nor made in the region", d.Call.Name, n.Name, v.Name)
				}
				c.Args[ai].Values[vi] = nv
			}
		}
		c.Outputs = make([]*ir.Value, len(n.Outputs))
		for oi, v := range n.Outputs {
			if v == nil {
				continue
			}
			nv, err := clone(v, c)
			if err != nil {
				return nil, err
			}
			c.Outputs[oi] = nv
		}
		g.Nodes = append(g.Nodes, c)
	}
	for _, v := range d.Call.Outputs {
		nv, ok := vals[v]
		if !ok {
			return nil, fmt.Errorf("partition: delegate %s: output %s is not made in the region", d.Call.Name, v.Name)
		}
		g.Outputs = append(g.Outputs, ir.OutputSpec{Kind: ir.UserOutput, Value: nv})
	}
	return g, nil
}
