package partition

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/ir"
)

// chain builds a graph from "name: input, input" lines; names without a line are graph inputs.
func chain(t *testing.T, spec string) (*ir.Graph, map[string]int) {
	t.Helper()
	g := ir.NewGraph()
	idx := map[string]int{}
	vals := map[string]*ir.Value{}
	value := func(name string) *ir.Value {
		if v, ok := vals[name]; ok {
			return v
		}
		v := &ir.Value{Name: name, Meta: &ir.TensorMeta{DType: ir.Float32}}
		vals[name] = v
		return v
	}
	for _, line := range strings.Split(strings.TrimSpace(spec), "\n") {
		name, ins, _ := strings.Cut(strings.TrimSpace(line), ":")
		n := &ir.Node{Name: name, Target: "aten." + name + ".default"}
		for _, in := range strings.Split(ins, ",") {
			if in = strings.TrimSpace(in); in != "" {
				n.Args = append(n.Args, ir.Arg{Kind: ir.ArgTensor, Values: []*ir.Value{value(in)}})
			}
		}
		out := value(name)
		out.Producer = n
		n.Outputs = []*ir.Value{out}
		idx[name] = len(g.Nodes)
		g.Nodes = append(g.Nodes, n)
	}
	return g, idx
}

func names(d *DAG, regions [][]int) string {
	var parts []string
	for _, r := range regions {
		var ns []string
		for _, i := range r {
			ns = append(ns, d.Nodes[i].Name)
		}
		parts = append(parts, "{"+strings.Join(ns, " ")+"}")
	}
	return strings.Join(parts, " ")
}

func TestPropose(t *testing.T) {
	for _, tc := range []struct {
		name      string
		graph     string
		supported [][]string // candidate groups
		perOp     bool
		want      string
	}{
		{"one chain becomes one region", "a: x\nb: a\nc: b", [][]string{{"a"}, {"b"}, {"c"}}, false, "{a b c}"},
		// Regions come in seed order, from the end of the graph (the reference's tag0 first).
		{"an unsupported node in the middle splits the chain", "a: x\nb: a\nc: b", [][]string{{"a"}, {"c"}}, false, "{c} {a}"},
		// Seeded in reverse (c, b, a), c absorbs b first; a cannot join: a→u→c would re-enter.
		{"no region swallows a declined node between two of its parts (diamond)",
			"a: x\nb: a\nu: a\nc: b, u", [][]string{{"a"}, {"b"}, {"c"}}, false, "{b c} {a}"},
		{"unconnected regions merge when that makes no cycle", "a: x\nb: y\nc: a\nd: b", [][]string{{"a"}, {"b"}}, false, "{a b}"},
		{"per-op mode keeps one region per group", "a: x\nb: a\nc: b", [][]string{{"a"}, {"b"}, {"c"}}, true, "{c} {b} {a}"},
		{"overlapping claims are one group", "w: x\na: w\nb: a", [][]string{{"a", "w"}, {"b", "w"}}, true, "{w a b}"},
		{"a group that is itself cyclic splits", "a: x\nu: a\nb: u", [][]string{{"a", "b"}}, true, "{a} {b}"},
		{"nothing supported", "a: x\nb: a", nil, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, idx := chain(t, tc.graph)
			d := NewDAG(g)
			var groups [][]int
			for _, grp := range tc.supported {
				var ids []int
				for _, n := range grp {
					ids = append(ids, idx[n])
				}
				groups = append(groups, ids)
			}
			got := names(d, d.Propose(UnionGroups(len(g.Nodes), groups), tc.perOp))
			if got != tc.want {
				t.Errorf("regions %s, want %s", got, tc.want)
			}
			for _, r := range d.Propose(UnionGroups(len(g.Nodes), groups), tc.perOp) {
				s := newBitset(len(g.Nodes))
				for _, i := range r {
					s.set(i)
				}
				if d.wouldCycle(s) {
					t.Errorf("region %v is not closed", r)
				}
			}
		})
	}
}

// TestProposeLargeGraph: a 2,000-node graph alternating supported and declined nodes on two
// branches proposes closed regions quickly enough for a test (the reference is O(P^2)).
func TestProposeLargeGraph(t *testing.T) {
	var sb strings.Builder
	prev := "x"
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&sb, "n%d: %s\n", i, prev)
		prev = fmt.Sprintf("n%d", i)
	}
	g, _ := chain(t, sb.String())
	d := NewDAG(g)
	var groups [][]int
	for i := 0; i < 2000; i++ {
		if i%10 != 5 {
			groups = append(groups, []int{i})
		}
	}
	regions := d.Propose(UnionGroups(len(g.Nodes), groups), false)
	if len(regions) != 201 {
		t.Errorf("%d regions, want 201 (200 declined nodes cut the chain)", len(regions))
	}
	// Seeded from the end: the first region proposed is the chain's tail, the last its head.
	if !slices.Equal(regions[0], []int{1996, 1997, 1998, 1999}) || !slices.Equal(regions[200], []int{0, 1, 2, 3, 4}) {
		t.Errorf("first region %v, last %v", regions[0], regions[200])
	}
}
