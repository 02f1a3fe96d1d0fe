package xnngraph

import "fmt"

// This file holds the checks that make a graph runnable, beyond the cross-references validate
// verifies: that every node reads values that exist when it runs (a graph input, a constant, or
// the output of an earlier node) and writes values nothing else writes, that every graph output
// is computed, and that every node's operands have the ranks and sizes its operation needs.
//
// The official runtime checks part of this when it defines the graph (operand ids, static
// filters, parameters such as non-zero kernels and strides) and the rest when it propagates the
// input shapes through it (xnn_reshape_runtime, on every execute); what it does not check at all
// (a node reading a value nothing computed, an output no node writes) it runs anyway, on
// whatever memory holds. etgo refuses all of it when the delegate is initialised, with the node,
// its operation and what is inconsistent. What each node type needs of its operands (its roles,
// which may be absent, its shape rule) is in its family's op_*.go file.

func nodeErr(k int, n *Node, format string, args ...any) error {
	return blobErr("node %d (%s): %s", k, n.OpName(), fmt.Sprintf(format, args...))
}

// Schedule checks the dataflow and returns the order to run the nodes in (indices into
// g.Nodes), as the official runtime orders them: it drops the nodes whose results nothing
// uses (no graph output depends on them) and runs every other one after the nodes computing its
// inputs, whatever their order in the file. It refuses:
//   - a required operand missing (the invalid id), in any node;
//   - two values with the same external id;
//   - among the nodes that run: an input that is not a graph input, a constant or the output
//     of a node; a value written twice, or a constant or graph input written; a cycle;
//   - a graph output nothing computes (unless it is also a graph input, passed through).
func (g *Graph) Schedule() ([]int, error) {
	index := make(map[uint32]int, len(g.Values))
	for i := range g.Values {
		index[g.Values[i].ID] = i
	}
	byExternal := map[uint32]int{}
	for i := range g.Values {
		v := &g.Values[i]
		if v.ExternalID == InvalidID {
			continue
		}
		if j, dup := byExternal[v.ExternalID]; dup {
			return nil, blobErr("values %d and %d both have external id %d", g.Values[j].ID, v.ID, v.ExternalID)
		}
		byExternal[v.ExternalID] = i
	}
	writers := make([][]int, len(g.Values))
	for k := range g.Nodes {
		n := &g.Nodes[k]
		t := typeOf(n.Op)
		for j, id := range n.Inputs {
			if id == InvalidID && !t.isOptional(j) {
				return nil, nodeErr(k, n, "its %s is missing (the invalid value id)", t.role(j))
			}
		}
		for j, id := range n.Outputs {
			if id == InvalidID {
				return nil, nodeErr(k, n, "output %d is missing (the invalid value id)", j)
			}
			i := index[id] // validate checked that it exists
			if len(writers[i]) == 0 || writers[i][len(writers[i])-1] != k {
				writers[i] = append(writers[i], k)
			}
		}
	}
	// The nodes that run: those a graph output depends on (and, as in XNNPACK, which keeps them
	// to be refused below, those writing a graph input).
	live := make([]bool, len(g.Nodes))
	var work []int
	outputs := 0
	for i := range g.Values {
		if g.Values[i].IsOutput() {
			outputs++
		}
		if g.Values[i].Flags != 0 {
			work = append(work, i)
		}
	}
	if outputs == 0 {
		return nil, blobErr("the graph has no outputs (no value is flagged a graph output)")
	}
	seen := make([]bool, len(g.Values))
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[i] {
			continue
		}
		seen[i] = true
		for _, k := range writers[i] {
			if live[k] {
				continue
			}
			live[k] = true
			for _, id := range g.Nodes[k].Inputs {
				if id != InvalidID {
					work = append(work, index[id])
				}
			}
		}
	}
	ready := make([]bool, len(g.Values))
	for i := range g.Values {
		v := &g.Values[i]
		ready[i] = v.ConstantIdx != 0 || v.IsInput()
		var w []int
		for _, k := range writers[i] {
			if live[k] {
				w = append(w, k)
			}
		}
		switch {
		case len(w) == 0:
			if v.IsOutput() && !v.IsInput() {
				return nil, blobErr("graph output value %d (external id %d) is not computed by any node", v.ID, v.ExternalID)
			}
		case len(w) > 1:
			return nil, nodeErr(w[1], &g.Nodes[w[1]], "writes value %d, which node %d (%s) computes already", v.ID, w[0], g.Nodes[w[0]].OpName())
		case v.ConstantIdx != 0:
			return nil, nodeErr(w[0], &g.Nodes[w[0]], "writes value %d, a constant", v.ID)
		case v.IsInput():
			return nil, nodeErr(w[0], &g.Nodes[w[0]], "writes value %d, a graph input", v.ID)
		}
		writers[i] = w
	}
	// Each pass runs, in file order, every waiting node whose inputs are ready.
	var order, waiting []int
	for k := range g.Nodes {
		if live[k] {
			waiting = append(waiting, k)
		}
	}
	for len(waiting) > 0 {
		var still []int
		for _, k := range waiting {
			n := &g.Nodes[k]
			ok := true
			for _, id := range n.Inputs {
				ok = ok && (id == InvalidID || ready[index[id]])
			}
			if !ok {
				still = append(still, k)
				continue
			}
			order = append(order, k)
			for _, id := range n.Outputs {
				ready[index[id]] = true
			}
		}
		if len(still) == len(waiting) {
			return nil, g.unschedulable(still, index, writers, ready)
		}
		waiting = still
	}
	return order, nil
}

// unschedulable explains why none of the waiting nodes can run: the first reads a value that
// nothing computes, or they wait on each other.
func (g *Graph) unschedulable(waiting []int, index map[uint32]int, writers [][]int, ready []bool) error {
	for _, k := range waiting {
		n := &g.Nodes[k]
		t := typeOf(n.Op)
		for j, id := range n.Inputs {
			if id == InvalidID || ready[index[id]] || len(writers[index[id]]) > 0 {
				continue
			}
			return nodeErr(k, n, "its %s, value %d, is not a graph input, a constant or the output of any node", t.role(j), id)
		}
	}
	k := waiting[0]
	n := &g.Nodes[k]
	for _, id := range n.Inputs {
		if id != InvalidID && !ready[index[id]] {
			w := writers[index[id]][0]
			if w == k {
				return nodeErr(k, n, "reads value %d, which it computes itself", id)
			}
			return nodeErr(k, n, "reads value %d, computed by node %d (%s), which depends on this node's result: the graph has a cycle", id, w, g.Nodes[w].OpName())
		}
	}
	return nodeErr(k, n, "cannot be scheduled")
}

// MaxValueElements bounds the elements of a value whose shape the graph implies (2^28: a GiB
// of fp32): larger ones are a corrupt size, not a model, and would be allocated at execute.
var MaxValueElements = 1 << 28

func Numel(d []int) int {
	n := 1
	for _, x := range d {
		n *= x
	}
	return n
}

// InferShapes propagates shapes through the nodes in order (a schedule) as execution will: the graph inputs have the
// shapes inputDims gives (the delegate call's tensors, or the blob's declared dims), constants
// their declared dims, and every node's outputs the shape its operation computes from its
// inputs; each node's operands are checked on the way. It returns the shape of every value
// (nil for values no node or input defines).
func (g *Graph) InferShapes(order []int, inputDims func(i int) []int) ([][]int, error) {
	index := make(map[uint32]int, len(g.Values))
	shapes := make([][]int, len(g.Values))
	for i := range g.Values {
		v := &g.Values[i]
		index[v.ID] = i
		switch {
		case v.ConstantIdx != 0:
			shapes[i] = DimsOf(v.Dims)
		case v.IsInput():
			shapes[i] = inputDims(i)
		}
	}
	for _, k := range order {
		n := &g.Nodes[k]
		t := typeOf(n.Op)
		in := make([][]int, len(n.Inputs))
		for j, id := range n.Inputs {
			if id != InvalidID {
				in[j] = shapes[index[id]]
			}
		}
		if t.declared != nil {
			decl := make([]*Value, len(n.Inputs))
			for j, id := range n.Inputs {
				if id != InvalidID {
					decl[j] = &g.Values[index[id]]
				}
			}
			if err := t.declared(n, decl); err != nil {
				return nil, nodeErr(k, n, "%v", err)
			}
		}
		outs, err := t.infer(n, in)
		if err != nil {
			return nil, nodeErr(k, n, "%v", err)
		}
		for j, id := range n.Outputs {
			if j < len(outs) {
				if e := Numel(outs[j]); e > MaxValueElements {
					return nil, nodeErr(k, n, "output value %d would have shape %v (%d elements, more than %d)", id, outs[j], e, MaxValueElements)
				}
				shapes[index[id]] = outs[j]
			}
		}
	}
	return shapes, nil
}

// IntermediateBudget is how far the intermediate values a graph computes may exceed the sizes
// it declares for them, in bytes (issue 13's memory budget: 64 MB beyond what a file declares).
const IntermediateBudget = 64 << 20

// WithinDeclared refuses a graph whose nodes compute intermediate values larger in total than
// the values' declared dims by more than IntermediateBudget. Valid blobs declare every value
// at its size (or its upper bound, for dynamic shapes); a corrupt parameter (a padding of
// 52,993 on a 3x3 convolution) would make a 1 MB file allocate hundreds of MB. XNNPACK itself
// resizes and runs such a graph; etgo refuses it, on purpose, naming the largest value. Small
// disagreements (a declared dim off by one, which XNNPACK ignores) stay accepted.
func (g *Graph) WithinDeclared(shapes [][]int) error {
	var computed, declared int64
	worst, worstExcess := -1, int64(0)
	for i, s := range shapes {
		v := &g.Values[i]
		if s == nil || v.ConstantIdx != 0 || v.IsInput() {
			continue
		}
		c, d := int64(Numel(s))*4, int64(Numel(DimsOf(v.Dims)))*4
		computed += c
		declared += d
		if c-d > worstExcess {
			worst, worstExcess = i, c-d
		}
	}
	if computed > declared+IntermediateBudget && worst >= 0 {
		v := &g.Values[worst]
		return blobErr("the graph computes %d MB of intermediate values where its values declare %d MB (value %d: shape %v, declared %v)",
			computed>>20, declared>>20, v.ID, shapes[worst], v.Dims)
	}
	return nil
}

func DimsOf(d []uint32) []int {
	out := make([]int, len(d))
	for i, x := range d {
		out[i] = int(x)
	}
	return out
}
