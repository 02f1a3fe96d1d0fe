package htmlreport

import (
	"fmt"
	"sort"
	"strings"

	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
)

// node is one box of the drawing: a user input, an operator, or a graph output.
type node struct {
	name, label, title string
	kind               string // "input", "output", "delegated", "fallback"
	region             int    // delegate index for delegated operators, else -1
	fill               string // a delegated box's colour: its backend's
	layer, order       int
	x, y               float64
}

// edge is a tensor from one box to another.
type edge struct {
	from, to   int
	name, meta string // the tensor's name and dtype[shape], for titles and tables
	bytes      int64
	boundary   bool // crosses a region's border (or a region and the portable kernels)
	// via are the points of the rows the edge passes between its ends (one per row skipped), so
	// that a long edge runs in its own column instead of across the boxes in between.
	via [][2]float64
}

type drawing struct {
	nodes []node
	edges []edge
}

const (
	boxW, boxH = 150.0, 34.0
	gapX, gapY = 24.0, 30.0
	margin     = 20.0
)

// build recovers the partitioned graph from the plan (each region's nodes, and the nodes left
// in the remaining graph, which are not delegate calls) and lays it out.
func build(plan *partition.Plan, decisions map[string]*partition.Decision) *drawing {
	d := &drawing{}
	index := map[any]int{}
	producer := map[*ir.Value]int{}
	calls := map[*ir.Node]bool{}
	for _, del := range plan.Delegates {
		calls[del.Call] = true
	}
	add := func(key any, n node) int {
		index[key] = len(d.nodes)
		d.nodes = append(d.nodes, n)
		return len(d.nodes) - 1
	}
	for _, in := range plan.Graph.Inputs {
		if in.Kind == ir.UserInput && in.Value != nil {
			i := add(in.Value, node{name: in.Value.Name, label: in.Value.Name, title: "input " + in.Value.Name + " " + meta(in.Value), kind: "input", region: -1})
			producer[in.Value] = i
		}
	}
	// Operators in the input graph's order (Decisions), whether a region took them or not.
	byName := map[string]*ir.Node{}
	regionOf := map[*ir.Node]int{}
	for k, del := range plan.Delegates {
		for _, n := range del.Region.Nodes {
			byName[n.Name], regionOf[n] = n, k
		}
	}
	for _, n := range plan.Graph.Nodes {
		if !calls[n] {
			byName[n.Name], regionOf[n] = n, -1
		}
	}
	var ops []*ir.Node
	for _, dec := range plan.Decisions {
		if n := byName[dec.Node]; n != nil {
			ops = append(ops, n)
		}
	}
	for _, n := range ops {
		k := regionOf[n]
		nd := node{name: n.Name, label: short(n.Target), kind: "fallback", region: -1}
		title := []string{n.Name + " = " + n.Target}
		if k >= 0 {
			nd.kind, nd.region = "delegated", k
			title = append(title, fmt.Sprintf("delegate %d (%s)", k, plan.Delegates[k].Spec.BackendID))
		} else {
			title = append(title, "portable kernels")
		}
		if dec := decisions[n.Name]; dec != nil {
			for _, x := range dec.Declines {
				title = append(title, fmt.Sprintf("%s: %s: %s", x.BackendID, x.Reason, x.Detail))
			}
		}
		nd.title = strings.Join(title, "\n")
		i := add(n, nd)
		for _, v := range n.Outputs {
			if v != nil {
				producer[v] = i
			}
		}
	}
	// Collapsing a region re-points its outputs at the call node; read producers from the region
	// nodes themselves (done above), then connect every operator's tensor arguments.
	for _, n := range ops {
		to := index[n]
		for _, a := range n.Args {
			for _, v := range a.Values {
				if v == nil || v.Kind != ir.TensorValue {
					continue
				}
				from, ok := producer[v]
				if !ok {
					continue // a parameter or constant: not drawn
				}
				d.edges = append(d.edges, edge{from: from, to: to, name: v.Name, meta: meta(v), bytes: tensorBytes(v), boundary: d.nodes[from].region != d.nodes[to].region})
			}
		}
	}
	for _, out := range plan.Graph.Outputs {
		if out.Value == nil {
			continue
		}
		from, ok := producer[out.Value]
		if !ok {
			continue
		}
		to := add(out, node{name: "output " + out.Value.Name, label: "output", title: "output " + out.Value.Name + " " + meta(out.Value), kind: "output", region: -1})
		d.edges = append(d.edges, edge{from: from, to: to, name: out.Value.Name, meta: meta(out.Value), bytes: tensorBytes(out.Value), boundary: d.nodes[from].region >= 0})
	}
	d.layout()
	return d
}

// layout assigns layers by longest path from the inputs, gives every edge that skips rows a
// virtual point in each row it passes (Sugiyama's dummy nodes), orders each row by the
// barycenter of its predecessors (a few top-down sweeps), and places the boxes centred per row.
func (d *drawing) layout() {
	preds := make([][]int, len(d.nodes))
	for _, e := range d.edges {
		preds[e.to] = append(preds[e.to], e.from)
	}
	// Nodes were added in a topological order (inputs, operators in graph order, outputs).
	for i := range d.nodes {
		for _, p := range preds[i] {
			d.nodes[i].layer = max(d.nodes[i].layer, d.nodes[p].layer+1)
		}
	}
	// Slots: the boxes, then one virtual slot per edge per row skipped.
	type slot struct {
		layer int
		preds []int
		pos   float64
	}
	slots := make([]slot, len(d.nodes))
	for i, n := range d.nodes {
		slots[i].layer = n.layer
	}
	virtual := make([][]int, len(d.edges)) // the slots an edge passes, top to bottom
	for k, e := range d.edges {
		prev := e.from
		for l := d.nodes[e.from].layer + 1; l < d.nodes[e.to].layer; l++ {
			slots = append(slots, slot{layer: l, preds: []int{prev}})
			prev = len(slots) - 1
			virtual[k] = append(virtual[k], prev)
		}
		slots[e.to].preds = append(slots[e.to].preds, prev)
	}
	var layers [][]int
	for i, s := range slots {
		for len(layers) <= s.layer {
			layers = append(layers, nil)
		}
		layers[s.layer] = append(layers[s.layer], i)
	}
	for _, l := range layers {
		for k, i := range l {
			slots[i].pos = float64(k)
		}
	}
	for sweep := 0; sweep < 6; sweep++ {
		for _, l := range layers[1:] {
			bary := make(map[int]float64, len(l))
			for _, i := range l {
				if len(slots[i].preds) == 0 {
					bary[i] = slots[i].pos
					continue
				}
				s := 0.0
				for _, p := range slots[i].preds {
					s += slots[p].pos
				}
				bary[i] = s / float64(len(slots[i].preds))
			}
			sort.SliceStable(l, func(a, b int) bool { return bary[l[a]] < bary[l[b]] })
			for k, i := range l {
				slots[i].pos = float64(k)
			}
		}
	}
	// A virtual slot is narrower than a box: rows are packed by width, then centred.
	width := func(i int) float64 {
		if i < len(d.nodes) {
			return boxW
		}
		return gapX
	}
	rowWidth := make([]float64, len(layers))
	widest := 0.0
	for li, l := range layers {
		for _, i := range l {
			rowWidth[li] += width(i) + gapX
		}
		widest = max(widest, rowWidth[li])
	}
	x := make([]float64, len(slots))
	for li, l := range layers {
		at := margin + (widest-rowWidth[li])/2
		for k, i := range l {
			x[i] = at
			at += width(i) + gapX
			if i < len(d.nodes) {
				d.nodes[i].order = k
				d.nodes[i].x = x[i]
				d.nodes[i].y = margin + float64(li)*(boxH+gapY)
			}
		}
	}
	for k := range d.edges {
		for _, i := range virtual[k] {
			d.edges[k].via = append(d.edges[k].via, [2]float64{x[i] + gapX/2, margin + float64(slots[i].layer)*(boxH+gapY) + boxH/2})
		}
	}
}

func (d *drawing) size() (w, h float64) {
	for _, n := range d.nodes {
		w, h = max(w, n.x+boxW+margin), max(h, n.y+boxH+margin)
	}
	for _, e := range d.edges {
		for _, v := range e.via {
			w = max(w, v[0]+gapX+margin)
		}
	}
	return w, h
}

// short is an operator's label: its name without namespace and the default overload.
func short(target string) string {
	t := strings.TrimPrefix(target, "aten.")
	t = strings.TrimSuffix(t, ".default")
	if len(t) > 22 {
		t = t[:21] + "…"
	}
	return t
}

func meta(v *ir.Value) string {
	if v == nil || v.Meta == nil {
		return ""
	}
	dims := make([]string, len(v.Meta.Sizes))
	for i, s := range v.Meta.Sizes {
		if s.IsStatic() {
			dims[i] = fmt.Sprint(s.Size)
		} else {
			dims[i] = s.Symbol
		}
	}
	return fmt.Sprintf("%s[%s]", v.Meta.DType, strings.Join(dims, ","))
}
