package partition

import "github.com/etgo/etgo/ir"

// Coverage is one backend's share of a plan and what its boundaries cost.
type Coverage struct {
	BackendID string
	// Operators counts the input graph's nodes; Delegated those this backend took.
	Operators, Delegated int
	// FLOPs is the whole graph's estimated work, DelegatedFLOPs this backend's share of it: node
	// counts treat a reshape like a convolution, work does not.
	FLOPs, DelegatedFLOPs int64
	Regions               int
	// Inputs and Outputs count the tensors handed to and returned by this backend's delegate
	// calls in one run, InputBytes and OutputBytes their sizes (symbolic dims at their trace-time
	// sizes). Every one is a hand-off between the backend and the rest of the program, which a
	// backend with memory of its own pays for with a copy: fewer regions, fewer crossings.
	Inputs, Outputs         int
	InputBytes, OutputBytes int64
}

// Coverage returns, per backend in the order its first delegate appears, how much of the graph
// it took and the tensors crossing its boundaries.
func (p *Plan) Coverage() []Coverage {
	var out []Coverage
	at := map[string]int{}
	var total int64
	for _, dec := range p.Decisions {
		total += dec.FLOPs
	}
	for _, d := range p.Delegates {
		i, ok := at[d.Spec.BackendID]
		if !ok {
			i = len(out)
			at[d.Spec.BackendID] = i
			out = append(out, Coverage{BackendID: d.Spec.BackendID, Operators: len(p.Decisions), FLOPs: total})
		}
		c := &out[i]
		c.Regions++
		for _, a := range d.Call.Args {
			for _, v := range a.Values {
				if v != nil && v.Kind == ir.TensorValue {
					c.Inputs++
					c.InputBytes += tensorBytes(v)
				}
			}
		}
		for _, v := range d.Call.Outputs {
			if v != nil && v.Kind == ir.TensorValue {
				c.Outputs++
				c.OutputBytes += tensorBytes(v)
			}
		}
	}
	for _, dec := range p.Decisions {
		if dec.Delegate >= 0 {
			c := &out[at[p.Delegates[dec.Delegate].Spec.BackendID]]
			c.Delegated++
			c.DelegatedFLOPs += dec.FLOPs
		}
	}
	return out
}

func tensorBytes(v *ir.Value) int64 {
	if v.Meta == nil {
		return 0
	}
	return numel(v.Meta) * int64(v.Meta.DType.Size())
}
