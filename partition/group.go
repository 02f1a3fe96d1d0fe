// Package partition holds the delegation machinery that is independent of any backend: the
// dependency view of a graph, the grouping of claimed nodes into regions that can become one
// delegate call each (cycle-free, as ExecuTorch's group-based partitioner builds them), and the
// per-node decision report. Lower runs an ordered list of Partitioners as
// to_edge_transform_and_lower does: each one's regions become executorch_call_delegate nodes
// before the next one sees the graph.
//
// Invariants: every region is closed under the graph's paths (no path leaves a region and comes
// back into it), so collapsing it into one call keeps the graph acyclic; no node is in two
// regions; a later partitioner never claims an earlier one's delegate; after Lower the
// remaining graph is topologically sorted and every node of the input graph has a Decision.
package partition

import (
	"math/bits"
	"sort"

	"github.com/etgo/etgo/ir"
)

// DAG is the dependency view of a graph's nodes: node i's users, and for every node the set of
// nodes reachable downstream from it.
type DAG struct {
	Nodes []*ir.Node
	index map[*ir.Node]int
	users [][]int
	reach []bitset // reach[i]: every node with a path from i (i excluded)
}

// NewDAG builds the dependency view. Nodes are in topological order (ir's invariant).
func NewDAG(g *ir.Graph) *DAG {
	d := &DAG{Nodes: g.Nodes, index: make(map[*ir.Node]int, len(g.Nodes))}
	for i, n := range g.Nodes {
		d.index[n] = i
	}
	d.users = make([][]int, len(g.Nodes))
	for i, n := range g.Nodes {
		seen := map[int]bool{}
		for _, a := range n.Args {
			for _, v := range a.Values {
				if v == nil || v.Producer == nil {
					continue
				}
				p, ok := d.index[v.Producer]
				if ok && !seen[p] {
					seen[p] = true
					d.users[p] = append(d.users[p], i)
				}
			}
		}
	}
	d.reach = make([]bitset, len(g.Nodes))
	for i := len(g.Nodes) - 1; i >= 0; i-- {
		r := newBitset(len(g.Nodes))
		for _, u := range d.users[i] {
			r.set(u)
			r.or(d.reach[u])
		}
		d.reach[i] = r
	}
	return d
}

// Index returns a node's position.
func (d *DAG) Index(n *ir.Node) (int, bool) {
	i, ok := d.index[n]
	return i, ok
}

// Users returns the nodes that use node i's outputs.
func (d *DAG) Users(i int) []int { return d.users[i] }

// wouldCycle reports whether collapsing the node set s into one call creates a cycle: some path
// leaves s and enters it again.
func (d *DAG) wouldCycle(s bitset) bool {
	for i := range d.Nodes {
		if !s.has(i) {
			continue
		}
		for _, u := range d.users[i] {
			if !s.has(u) && d.reach[u].intersects(s) {
				return true
			}
		}
	}
	return false
}

// UnionGroups merges overlapping groups (disjoint-set union), as the XNNPACK partitioner does
// with a node and the dependencies its config claims with it. Groups are lists of node indices;
// the result is sorted by each group's first node.
func UnionGroups(n int, groups [][]int) [][]int {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	member := make([]bool, n)
	for _, g := range groups {
		for _, x := range g {
			member[x] = true
			parent[find(x)] = find(g[0])
		}
	}
	byRoot := map[int][]int{}
	for i := 0; i < n; i++ {
		if member[i] {
			r := find(i)
			byRoot[r] = append(byRoot[r], i)
		}
	}
	out := make([][]int, 0, len(byRoot))
	for _, g := range byRoot {
		out = append(out, g)
	}
	sort.Slice(out, func(a, b int) bool { return out[a][0] < out[b][0] })
	return out
}

// Propose turns groups of supported nodes into regions. With perOp, every group is its own
// region. Otherwise groups are seeded in reverse graph order and then merged greedily, each
// region absorbing every later one whose union with it stays cycle-free; regions need not be
// connected. A group that is cyclic on its own is split into its nodes. Regions come in seed
// order (the reference's partition ids, tag0 first): the order ExecuTorch fuses them in.
func (d *DAG) Propose(groups [][]int, perOp bool) [][]int {
	n := len(d.Nodes)
	var parts []bitset
	add := func(g []int) {
		s := newBitset(n)
		for _, x := range g {
			s.set(x)
		}
		if d.wouldCycle(s) {
			for _, x := range g {
				one := newBitset(n)
				one.set(x)
				parts = append(parts, one)
			}
			return
		}
		parts = append(parts, s)
	}
	// Seed in reverse order of each group's last node, as the reference walks the graph backwards.
	order := make([][]int, len(groups))
	copy(order, groups)
	last := func(g []int) int {
		m := -1
		for _, x := range g {
			m = max(m, x)
		}
		return m
	}
	sort.SliceStable(order, func(a, b int) bool { return last(order[a]) > last(order[b]) })
	for _, g := range order {
		add(g)
	}
	if !perOp {
		merged := make([]bool, len(parts))
		for i := range parts {
			if merged[i] {
				continue
			}
			for j := i + 1; j < len(parts); j++ {
				if merged[j] {
					continue
				}
				u := parts[i].clone()
				u.or(parts[j])
				if !d.wouldCycle(u) {
					parts[i], merged[j] = u, true
				}
			}
		}
		kept := parts[:0]
		for i, p := range parts {
			if !merged[i] {
				kept = append(kept, p)
			}
		}
		parts = kept
	}
	out := make([][]int, 0, len(parts))
	for _, p := range parts {
		out = append(out, p.members())
	}
	return out
}

// bitset is a fixed-size set of node indices.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) or(o bitset) {
	for i := range b {
		b[i] |= o[i]
	}
}
func (b bitset) clone() bitset { return append(bitset(nil), b...) }
func (b bitset) intersects(o bitset) bool {
	for i := range b {
		if b[i]&o[i] != 0 {
			return true
		}
	}
	return false
}
func (b bitset) members() []int {
	var out []int
	for w, x := range b {
		for x != 0 {
			t := bits.TrailingZeros64(x)
			out = append(out, w*64+t)
			x &= x - 1
		}
	}
	return out
}

// Claim is one node a backend rule accepted, with the nodes (a fused activation, getitems) and
// constants (weights, biases) the rule takes along with it.
type Claim struct {
	Nodes     []*ir.Node
	Constants []*ir.Value
}

// GroupBased turns claims into regions the way ExecuTorch's configuration-based partitioner
// does: overlapping claims are unioned into groups, groups are merged greedily while no cycle
// forms (or kept one per region in perOp mode), and every region owns the constants its claims
// took: a weight shared by two regions (a module applied twice, RAFT's unrolled update block)
// is owned by both, as ExecuTorch's _maybe_duplicate_constant_nodes copies it per delegate, so
// no delegate reads a weight as a run-time input.
func GroupBased(g *ir.Graph, claims []Claim, perOp bool) []Region {
	d := NewDAG(g)
	var groups [][]int
	for _, c := range claims {
		var ids []int
		for _, n := range c.Nodes {
			if i, ok := d.Index(n); ok {
				ids = append(ids, i)
			}
		}
		if len(ids) > 0 {
			groups = append(groups, ids)
		}
	}
	parts := d.Propose(UnionGroups(len(g.Nodes), groups), perOp)
	regionOf := make([]int, len(g.Nodes))
	for i := range regionOf {
		regionOf[i] = -1
	}
	regions := make([]Region, len(parts))
	for ri, p := range parts {
		for _, i := range p {
			regionOf[i] = ri
			regions[ri].Nodes = append(regions[ri].Nodes, d.Nodes[i])
		}
	}
	owned := make([]map[*ir.Value]bool, len(regions))
	for _, c := range claims {
		if len(c.Nodes) == 0 {
			continue
		}
		i, ok := d.Index(c.Nodes[0])
		if !ok || regionOf[i] < 0 {
			continue
		}
		r := regionOf[i]
		if owned[r] == nil {
			owned[r] = map[*ir.Value]bool{}
		}
		for _, v := range c.Constants {
			if !owned[r][v] {
				owned[r][v] = true
				regions[r].Constants = append(regions[r].Constants, v)
			}
		}
	}
	return regions
}
