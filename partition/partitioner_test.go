package partition

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/ir"
)

// opSet is a partitioner that claims nodes by operator name (the node name in these graphs),
// taking any parameter argument (a value named w…) along as an owned constant.
type opSet struct {
	backend string
	ops     []string // claimed node names
	keep    []string // node names it asks to keep whole
	perOp   bool
	bad     [][]string // regions proposed verbatim, bypassing grouping (to test the driver's checks)
}

func (p opSet) Spec() DelegationSpec { return DelegationSpec{BackendID: p.backend} }

func (p opSet) OpsToNotDecompose() ([]string, func(*ir.Graph, *ir.Node) bool) {
	var targets []string
	for _, k := range p.keep {
		targets = append(targets, "aten."+k+".default")
	}
	return targets, nil
}

func (p opSet) Partition(g *ir.Graph) (*Result, error) {
	res := &Result{Declined: map[*ir.Node]Decline{}}
	byName := map[string]*ir.Node{}
	var claims []Claim
	for _, n := range g.Nodes {
		byName[n.Name] = n
		if !slices.Contains(p.ops, n.Name) {
			res.Declined[n] = Decline{UnsupportedOperator, p.backend + " has no rule for " + n.Target}
			continue
		}
		c := Claim{Nodes: []*ir.Node{n}}
		for _, a := range n.Args {
			for _, v := range a.Values {
				if strings.HasPrefix(v.Name, "w") {
					c.Constants = append(c.Constants, v)
				}
			}
		}
		claims = append(claims, c)
	}
	if p.bad != nil {
		for _, names := range p.bad {
			var r Region
			for _, name := range names {
				r.Nodes = append(r.Nodes, byName[name])
			}
			res.Regions = append(res.Regions, r)
		}
		return res, nil
	}
	res.Regions = GroupBased(g, claims, p.perOp)
	return res, nil
}

// build makes a graph from chain's notation; inputs named w… are parameters, the others user
// inputs, and the last node's output is the graph's output.
func build(t *testing.T, spec string) *ir.Graph {
	g, _ := chain(t, spec)
	seen := map[*ir.Value]bool{}
	for _, n := range g.Nodes {
		for _, a := range n.Args {
			for _, v := range a.Values {
				if v.Producer != nil || seen[v] {
					continue
				}
				seen[v] = true
				kind := ir.UserInput
				if strings.HasPrefix(v.Name, "w") {
					kind = ir.Parameter
				}
				g.Inputs = append(g.Inputs, ir.InputSpec{Kind: kind, Value: v, Target: v.Name})
			}
		}
	}
	last := g.Nodes[len(g.Nodes)-1]
	g.Outputs = []ir.OutputSpec{{Kind: ir.UserOutput, Value: last.Outputs[0]}}
	return g
}

// describe renders a plan as "B{a b}[w] B{c} | rest: u call | inputs: x" for comparison.
func describe(p *Plan) string {
	var parts []string
	for _, d := range p.Delegates {
		var ns, cs []string
		for _, n := range d.Region.Nodes {
			ns = append(ns, n.Name)
		}
		for _, c := range d.Region.Constants {
			cs = append(cs, c.Name)
		}
		s := d.Spec.BackendID + "{" + strings.Join(ns, " ") + "}"
		if len(cs) > 0 {
			s += "[" + strings.Join(cs, " ") + "]"
		}
		parts = append(parts, s)
	}
	var rest, inputs []string
	for _, n := range p.Graph.Nodes {
		rest = append(rest, n.Name)
	}
	for _, in := range p.Graph.Inputs {
		inputs = append(inputs, in.Value.Name)
	}
	return strings.Join(parts, " ") + " | rest: " + strings.Join(rest, " ") + " | inputs: " + strings.Join(inputs, " ")
}

// declines renders each node's refusals as "u:A=unsupported-operator,B=unsupported-operator".
func declines(p *Plan) string {
	var out []string
	for _, d := range p.Decisions {
		if len(d.Declines) == 0 {
			continue
		}
		var rs []string
		for _, x := range d.Declines {
			rs = append(rs, x.BackendID+"="+string(x.Reason))
		}
		out = append(out, d.Node+":"+strings.Join(rs, ","))
	}
	return strings.Join(out, " ")
}

func TestLower(t *testing.T) {
	for _, tc := range []struct {
		name         string
		graph        string
		partitioners []opSet
		want         string // describe(plan)
		declines     string
		summary      string
		err          string
	}{
		{
			name:         "a declined node splits the chain into two regions",
			graph:        "a: x\nu: a\nc: u",
			partitioners: []opSet{{backend: "A", ops: []string{"a", "c"}}},
			want:         "A{a} A{c} | rest: executorch_call_delegate_0 u executorch_call_delegate_1 | inputs: x",
			declines:     "u:A=unsupported-operator",
			summary:      "2 of 3 operators delegated to A in 2 regions",
		},
		{
			// a→u→c: merging {a} into {b c} would swallow u, which sits between its parts.
			name:         "cycle avoidance keeps a declined node between two parts outside",
			graph:        "a: x\nb: a\nu: a\nc: b, u",
			partitioners: []opSet{{backend: "A", ops: []string{"a", "b", "c"}}},
			want:         "A{a} A{b c} | rest: executorch_call_delegate_0 u executorch_call_delegate_1 | inputs: x",
			declines:     "u:A=unsupported-operator",
			summary:      "3 of 4 operators delegated to A in 2 regions",
		},
		{
			name:  "a later partitioner sees only what earlier ones left",
			graph: "a: x\nb: a\nu: b\nc: u",
			partitioners: []opSet{
				{backend: "A", ops: []string{"a", "b"}},
				{backend: "B", ops: []string{"b", "c"}}, // b is gone by the time B runs
			},
			want:     "A{a b} B{c} | rest: executorch_call_delegate_0 u executorch_call_delegate_1 | inputs: x",
			declines: "u:A=unsupported-operator,B=unsupported-operator c:A=unsupported-operator",
			summary:  "2 of 4 operators delegated to A in 1 region; 1 of 4 operators delegated to B in 1 region",
		},
		{
			name:         "per-op mode gives one region per claimed node",
			graph:        "a: x\nb: a\nc: b",
			partitioners: []opSet{{backend: "A", ops: []string{"a", "b", "c"}, perOp: true}},
			want:         "A{a} A{b} A{c} | rest: executorch_call_delegate_0 executorch_call_delegate_1 executorch_call_delegate_2 | inputs: x",
			summary:      "3 of 3 operators delegated to A in 3 regions",
		},
		{
			name:         "a weight owned by the region stops being a graph input",
			graph:        "a: x, w1\nb: a, w2\nc: b",
			partitioners: []opSet{{backend: "A", ops: []string{"a", "b"}}},
			want:         "A{a b}[w1 w2] | rest: executorch_call_delegate_0 c | inputs: x",
			summary:      "2 of 3 operators delegated to A in 1 region",
			declines:     "c:A=unsupported-operator",
		},
		{
			name:         "a weight a declined node also reads stays a graph input",
			graph:        "a: x, w1\nu: a, w1",
			partitioners: []opSet{{backend: "A", ops: []string{"a"}}},
			want:         "A{a}[w1] | rest: executorch_call_delegate_0 u | inputs: x w1",
			summary:      "1 of 2 operators delegated to A in 1 region",
			declines:     "u:A=unsupported-operator",
		},
		{
			// RAFT applies one update block several times: each delegate owns the weight (as
			// ExecuTorch duplicates a constant per delegate), none reads it as an input.
			name:         "a weight two regions claim is owned by both",
			graph:        "a: x, w1\nu: a\nb: u, w1",
			partitioners: []opSet{{backend: "A", ops: []string{"a", "b"}}},
			want:         "A{a}[w1] A{b}[w1] | rest: executorch_call_delegate_0 u executorch_call_delegate_1 | inputs: x",
			summary:      "2 of 3 operators delegated to A in 2 regions",
			declines:     "u:A=unsupported-operator",
		},
		{
			name:         "nothing claimed",
			graph:        "a: x\nb: a",
			partitioners: []opSet{{backend: "A"}},
			want:         " | rest: a b | inputs: x",
			declines:     "a:A=unsupported-operator b:A=unsupported-operator",
			summary:      "0 of 2 operators delegated",
		},
		{
			name:         "an operator kept whole but not claimed is an error",
			graph:        "a: x\nlinear: a",
			partitioners: []opSet{{backend: "A", ops: []string{"a"}, keep: []string{"linear"}}},
			err:          "node linear (aten.linear.default) was not decomposed or delegated: A asked to keep it whole",
		},
		{
			name:         "an operator kept whole by one partitioner and claimed by a later one is fine",
			graph:        "a: x\nlinear: a",
			partitioners: []opSet{{backend: "A", ops: []string{"a"}, keep: []string{"linear"}}, {backend: "B", ops: []string{"linear"}}},
			want:         "A{a} B{linear} | rest: executorch_call_delegate_0 executorch_call_delegate_1 | inputs: x",
			declines:     "linear:A=unsupported-operator",
			summary:      "1 of 2 operators delegated to A in 1 region; 1 of 2 operators delegated to B in 1 region",
		},
		{
			name:         "a proposed region that is not closed is refused",
			graph:        "a: x\nu: a\nc: u",
			partitioners: []opSet{{backend: "A", ops: []string{"a", "c"}, bad: [][]string{{"a", "c"}}}},
			err:          "A: region 0 (a …) does not form one fully contained subgraph",
		},
		{
			name:  "claiming an earlier partitioner's delegate is refused",
			graph: "a: x\nb: a",
			partitioners: []opSet{
				{backend: "A", ops: []string{"a"}},
				{backend: "B", ops: []string{"executorch_call_delegate_0", "b"}},
			},
			err: "B: region 0 claims executorch_call_delegate_0, a delegate an earlier partitioner made",
		},
		{
			name:         "a node in two regions is refused",
			graph:        "a: x\nb: a",
			partitioners: []opSet{{backend: "A", ops: []string{"a", "b"}, bad: [][]string{{"a", "b"}, {"b"}}}},
			err:          "A: node b is claimed by regions 0 and 1",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := build(t, tc.graph)
			ps := make([]Partitioner, len(tc.partitioners))
			for i, p := range tc.partitioners {
				ps[i] = p
			}
			plan, err := Lower(g, ps)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(plan); got != tc.want {
				t.Errorf("plan\n got %s\nwant %s", got, tc.want)
			}
			if got := declines(plan); got != tc.declines {
				t.Errorf("declines\n got %s\nwant %s", got, tc.declines)
			}
			if got := plan.Summary(); got != tc.summary {
				t.Errorf("summary\n got %s\nwant %s", got, tc.summary)
			}
			checkWellFormed(t, plan.Graph)
		})
	}
}

// checkWellFormed: every argument is a graph input or produced by an earlier node, and every
// value's Producer is the node that lists it.
func checkWellFormed(t *testing.T, g *ir.Graph) {
	t.Helper()
	defined := map[*ir.Value]bool{}
	for _, in := range g.Inputs {
		defined[in.Value] = true
	}
	for _, n := range g.Nodes {
		for _, a := range n.Args {
			for _, v := range a.Values {
				if !defined[v] {
					t.Errorf("%s reads %s before it is defined (or it is no longer an input)", n.Name, v.Name)
				}
			}
		}
		for _, v := range n.Outputs {
			if v.Producer != n {
				t.Errorf("%s lists output %s produced by %v", n.Name, v.Name, v.Producer)
			}
			defined[v] = true
		}
	}
	for _, o := range g.Outputs {
		if !defined[o.Value] {
			t.Errorf("graph output %s is not defined", o.Value.Name)
		}
	}
}

// TestLowerReorders: collapsing a region whose parts are far apart in the original order must
// leave the remaining graph topologically sorted.
func TestLowerReorders(t *testing.T) {
	// a and d are unconnected and merge into one region; b reads a, d reads c.
	g := build(t, "a: x\nb: a\nc: y\nd: c\ne: b, d")
	plan, err := Lower(g, []Partitioner{opSet{backend: "A", ops: []string{"a", "d"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := describe(plan)
	if !strings.HasPrefix(got, "A{a d}") {
		t.Fatalf("plan %s, want a and d in one region", got)
	}
	checkWellFormed(t, plan.Graph)
	call := plan.Delegates[0].Call
	var outs []string
	for _, v := range call.Outputs {
		outs = append(outs, v.Name)
	}
	if fmt.Sprint(outs) != "[a d]" {
		t.Errorf("call outputs %v, want [a d]", outs)
	}
}

// TestOperatorCounts: counts follow get_delegation_info, where a multi-output operator reads
// each used output through a getitem and a delegate's results are read through getitems too.
func TestOperatorCounts(t *testing.T) {
	g := build(t, "bn: x\nu: bn")
	bn := g.Nodes[0]
	stat := &ir.Value{Name: "bn_mean", Meta: &ir.TensorMeta{DType: ir.Float32}, Producer: bn}
	unused := &ir.Value{Name: "bn_var", Meta: &ir.TensorMeta{DType: ir.Float32}, Producer: bn}
	bn.Outputs = append(bn.Outputs, stat, unused)
	g.Outputs = append(g.Outputs, ir.OutputSpec{Value: stat})
	plan, err := Lower(g, []Partitioner{opSet{backend: "A", ops: []string{"bn"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(plan.OperatorCounts())
	// bn: 2 used outputs → 2 getitems inside the delegate; the call has 2 outputs read outside.
	want := "map[aten.bn.default:{1 0} aten.u.default:{0 1} getitem:{2 2}]"
	if got != want {
		t.Errorf("counts %s, want %s", got, want)
	}
}

// TestCoverage: per backend, in partitioner order, the share of operators, the regions and the
// tensors (with their bytes) crossing each delegate call.
func TestCoverage(t *testing.T) {
	g := build(t, "a: x, w1\nu: a\nb: u\nc: b, x")
	x := g.Inputs[0].Value
	x.Meta.Sizes = []ir.Dim{{Size: 2}, {Size: 3, Symbol: "s0"}} // symbolic dims count at their hint
	plan, err := Lower(g, []Partitioner{opSet{backend: "A", ops: []string{"a", "b", "c"}}, opSet{backend: "B", ops: []string{"u"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%+v", plan.Coverage())
	// A: {a}[w1] takes x (24 B) and returns a (4 B); {b c} takes u and x, returns c.
	// Every node here is elementwise on one element: 1 FLOP each.
	want := "[{BackendID:A Operators:4 Delegated:3 FLOPs:4 DelegatedFLOPs:3 Regions:2 Inputs:3 Outputs:2 InputBytes:52 OutputBytes:8} " +
		"{BackendID:B Operators:4 Delegated:1 FLOPs:4 DelegatedFLOPs:1 Regions:1 Inputs:1 Outputs:1 InputBytes:4 OutputBytes:4}]"
	if got != want {
		t.Errorf("coverage\n %s\nwant\n %s", got, want)
	}
	if s := plan.Summary(); s != "3 of 4 operators delegated to A in 2 regions; 1 of 4 operators delegated to B in 1 region" {
		t.Errorf("summary %q", s)
	}
	empty, err := Lower(build(t, "u: x"), []Partitioner{opSet{backend: "A"}})
	if err != nil {
		t.Fatal(err)
	}
	if c := empty.Coverage(); len(c) != 0 {
		t.Errorf("nothing delegated: coverage %+v", c)
	}
}
