package aot

import (
	"slices"
)

// planMemory is the official preprocess's MemoryPlanningPass with the greedy algorithm and
// allow_overlapping_allocations=False: a tensor's lifetime is the first to the last node
// index that refers to it (placeholders from 0, outputs to the output node); every
// non-constant tensor, in node order, sorted by aligned size (largest first; among equal sizes
// the later one first, as bisect.insort then reverse leave them), takes the first shared
// object none of whose tenants' lifetimes it overlaps, else a new one. mem_obj_id is the
// object's index; constants and prepacked tensors keep -1.
func (g *fxGraph) planMemory() {
	const alignment = 16
	specsOf := func(n *fxNode) []*tensorSpec {
		if n.kind == fxOutput {
			var out []*tensorSpec
			for _, a := range n.args {
				out = append(out, a.node.specs...)
			}
			return out
		}
		return n.specs
	}
	for idx, n := range g.nodes {
		refs := []*fxNode{n}
		for _, as := range [][]fxArg{n.args, n.kwargs} {
			for i := range as {
				refs = append(refs, as[i].nodesOf()...)
			}
		}
		for _, r := range refs {
			for _, s := range specsOf(r) {
				start, end := idx, idx
				if n.kind == fxPlaceholder {
					start = 0
				}
				if s.hasLife {
					start, end = min(start, s.lifetime[0]), max(end, s.lifetime[1])
				}
				s.lifetime, s.hasLife = [2]int{start, end}, true
			}
		}
	}
	var specs []*tensorSpec
	seen := map[*tensorSpec]bool{}
	for _, n := range g.nodes {
		for _, s := range specsOf(n) {
			if s.konst || seen[s] {
				continue
			}
			seen[s] = true
			nbytes := int64(s.meta.DType.Size())
			for _, d := range s.meta.Sizes {
				nbytes *= d.Size
			}
			s.allocBytes = (nbytes + alignment - 1) / alignment * alignment
			specs = append(specs, s)
		}
	}
	// bisect.insort by size keeps equal sizes in insertion order; the reverse puts the largest
	// first and, among equal sizes, the later first.
	order := slices.Clone(specs)
	slices.SortStableFunc(order, func(a, b *tensorSpec) int {
		switch {
		case a.allocBytes < b.allocBytes:
			return -1
		case a.allocBytes > b.allocBytes:
			return 1
		}
		return 0
	})
	slices.Reverse(order)
	var objects [][]*tensorSpec
	for _, s := range order {
		picked := -1
		for k, tenants := range objects {
			free := true
			for _, o := range tenants {
				if !(s.lifetime[1] < o.lifetime[0] || s.lifetime[0] > o.lifetime[1]) {
					free = false
					break
				}
			}
			if free {
				picked = k
				break
			}
		}
		if picked < 0 {
			objects = append(objects, nil)
			picked = len(objects) - 1
		}
		objects[picked] = append(objects[picked], s)
		s.memObjID = picked
		s.planned = true
	}
}
