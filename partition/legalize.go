package partition

import (
	"sort"

	"github.com/etgo/etgo/ir"
)

// prioritized are the operators torch's legalize_graph moves to the front of its queue once
// ready (size arithmetic and runtime asserts before the data-dependent work that needs them).
var prioritized = map[string]bool{
	"_operator.add": true, "_operator.mul": true, "_operator.sub": true, "_operator.floordiv": true,
	"_operator.truediv": true, "_operator.mod": true, "_operator.le": true, "_operator.lt": true,
	"_operator.ge": true, "_operator.gt": true, "_operator.eq": true, "_operator.ne": true,
	"aten.sym_constrain_range.default": true, "aten.sym_constrain_range_for_size.default": true,
	"aten._assert_async.msg": true, "aten.scalar_tensor.default": true, "aten._assert_scalar.default": true,
}

// legalize reorders g.Nodes as torch.fx's legalize_graph does after ExecuTorch fuses each
// delegated region (create_submodule_from_nodes): Kahn's algorithm with a FIFO queue seeded by
// every node without inputs in graph order (placeholders first), each node releasing its users
// in the order FX lists them. The order matters beyond looks: the next region's nodes, its
// call's inputs (the blob's external values) and the program's instructions follow it.
//
// FX's graph has nodes etgo's IR folds away, and both take part: a placeholder per graph input,
// and a getitem per used output of an operator with several results (delegate calls included).
// FX lists a node's users in the order the uses were made: graph order, except that the call
// that just replaced a region (call) was made last.
func legalize(g *ir.Graph, call *ir.Node) {
	type vnode struct {
		node  *ir.Node // nil for placeholders and getitems
		users []int
		prio  bool
	}
	var nodes []vnode
	placeholder := map[*ir.Value]int{}
	for _, in := range g.Inputs {
		if in.Value != nil {
			placeholder[in.Value] = len(nodes)
			nodes = append(nodes, vnode{})
		}
	}
	users := g.Users()
	real := map[*ir.Node]int{}
	getitem := map[*ir.Value]int{}
	for _, n := range g.Nodes {
		real[n] = len(nodes)
		nodes = append(nodes, vnode{node: n, prio: prioritized[n.Target]})
		if !n.ListOutput && len(n.Outputs) <= 1 {
			continue
		}
		for _, v := range n.Outputs {
			if v != nil && (len(users[v]) > 0 || g.IsGraphOutput(v)) {
				getitem[v] = len(nodes)
				nodes[real[n]].users = append(nodes[real[n]].users, len(nodes))
				nodes = append(nodes, vnode{prio: false})
			}
		}
	}
	source := func(v *ir.Value) (int, bool) {
		if i, ok := getitem[v]; ok {
			return i, true
		}
		if v.Producer != nil {
			i, ok := real[v.Producer]
			return i, ok
		}
		i, ok := placeholder[v]
		return i, ok
	}
	indeg := make([]int, len(nodes))
	var late []int // predecessors the new call reads: it is their last user
	for _, n := range g.Nodes {
		me := real[n]
		seen := map[int]bool{}
		for _, a := range n.Args {
			for _, v := range a.Values {
				if v == nil {
					continue
				}
				p, ok := source(v)
				if !ok || seen[p] {
					continue
				}
				seen[p] = true
				indeg[me]++
				if n == call {
					late = append(late, p)
					continue
				}
				nodes[p].users = append(nodes[p].users, me)
			}
		}
	}
	for _, p := range late {
		nodes[p].users = append(nodes[p].users, real[call])
	}
	// Getitems after their producer: each has one predecessor, the producer, which lists them.
	for _, i := range getitem {
		indeg[i] = 1
	}
	// Real nodes list their users in graph order already (g.Nodes was walked in order) except
	// getitems, which were appended first; FX's getitems are users made right after the
	// producer, so that order is right too.
	queue := make([]int, 0, len(nodes))
	for i := range nodes {
		if indeg[i] == 0 {
			queue = append(queue, i)
		}
	}
	order := make([]*ir.Node, 0, len(g.Nodes))
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if n := nodes[cur].node; n != nil {
			order = append(order, n)
		}
		for _, u := range nodes[cur].users {
			if indeg[u]--; indeg[u] == 0 {
				if nodes[u].prio {
					queue = append([]int{u}, queue...)
				} else {
					queue = append(queue, u)
				}
			}
		}
	}
	if len(order) == len(g.Nodes) {
		g.Nodes = order
	}
}

// inGraphOrder sorts nodes by their position in g.
func inGraphOrder(g *ir.Graph, nodes []*ir.Node) {
	pos := make(map[*ir.Node]int, len(g.Nodes))
	for i, n := range g.Nodes {
		pos[n] = i
	}
	sort.SliceStable(nodes, func(i, j int) bool { return pos[nodes[i]] < pos[nodes[j]] })
}
