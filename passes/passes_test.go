package passes

import (
	"strings"
	"testing"

	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/ir"
)

func load(t *testing.T, name string) *ir.Graph {
	t.Helper()
	for _, m := range zoo.Models(t) {
		if m.Name == name {
			p, err := pt2.Open(m.PT2)
			if err != nil {
				t.Fatal(err)
			}
			return p.Graph
		}
	}
	t.Fatalf("no zoo model %s", name)
	return nil
}

func targets(g *ir.Graph) string {
	var s []string
	for _, n := range g.Nodes {
		s = append(s, n.Target)
	}
	return strings.Join(s, " ")
}

// The recommended XNNPACK passes remove the no-op expands the official flow removes: the
// noop_expand model (whose official delegation has 1 region with the passes, 2 without) and
// shape_ops.
func TestRecommendedRemovesNoopExpands(t *testing.T) {
	for _, tc := range []struct{ model, before, after string }{
		{"noop_expand",
			"aten.linear.default aten.relu.default aten.expand_copy.default aten.linear.default aten.add.Tensor",
			"aten.linear.default aten.relu.default aten.linear.default aten.add.Tensor"},
		{"shape_ops",
			"aten.linear.default aten.permute_copy.default aten.cat.default aten.slice_copy.Tensor aten.slice_copy.Tensor aten.unsqueeze_copy.default aten.expand_copy.default aten.reshape.default aten.relu.default aten.view_copy.default aten.mul.Tensor",
			"aten.linear.default aten.permute_copy.default aten.cat.default aten.slice_copy.Tensor aten.slice_copy.Tensor aten.unsqueeze_copy.default aten.reshape.default aten.relu.default aten.view_copy.default aten.mul.Tensor"},
	} {
		t.Run(tc.model, func(t *testing.T) {
			g := load(t, tc.model)
			if _, err := NewManager(ReplaceViewOps{}).Run(g); err != nil {
				t.Fatal(err)
			}
			if got := targets(g); got != tc.before {
				t.Fatalf("edge targets:\n got %s\nwant %s", got, tc.before)
			}
			// XNNPACK's recommended set (backends/xnnpack's AheadOfTime).
			reports, err := NewManager(RemoveNoopExpandCopy{}).Run(g)
			if err != nil {
				t.Fatal(err)
			}
			if got := targets(g); got != tc.after {
				t.Fatalf("after the recommended passes:\n got %s\nwant %s", got, tc.after)
			}
			if len(reports) != 1 || !reports[0].Changed || !strings.Contains(reports[0].Summary, "rewired 1 no-op expand_copy") {
				t.Errorf("reports %+v", reports)
			}
			// Every argument still refers to a value some earlier node or input defines.
			defined := map[*ir.Value]bool{}
			for _, in := range g.Inputs {
				defined[in.Value] = true
			}
			for _, n := range g.Nodes {
				for _, a := range n.Args {
					for _, v := range a.Values {
						if v != nil && !defined[v] {
							t.Errorf("%s reads %s, which nothing defines before it", n.Target, v.Name)
						}
					}
				}
				for _, v := range n.Outputs {
					defined[v] = true
				}
			}
		})
	}
}

// An expand that broadcasts stays.
func TestRealExpandStays(t *testing.T) {
	g := ir.NewGraph()
	x := &ir.Value{Name: "x", Meta: &ir.TensorMeta{DType: ir.Float32, Sizes: []ir.Dim{{Size: 1}, {Size: 4}}}}
	y := &ir.Value{Name: "y", Meta: &ir.TensorMeta{DType: ir.Float32, Sizes: []ir.Dim{{Size: 3}, {Size: 4}}}}
	n := &ir.Node{Target: "aten.expand_copy.default", Args: []ir.Arg{{Kind: ir.ArgTensor, Values: []*ir.Value{x}}, {Kind: ir.ArgInts, Ints: []int64{3, 4}}}, Outputs: []*ir.Value{y}}
	y.Producer = n
	g.Nodes = []*ir.Node{n}
	g.Inputs = []ir.InputSpec{{Kind: ir.UserInput, Value: x}}
	g.Outputs = []ir.OutputSpec{{Kind: ir.UserOutput, Value: y}}
	if s, err := (RemoveNoopExpandCopy{}).Run(g); err != nil || s != "" || len(g.Nodes) != 1 {
		t.Errorf("a broadcasting expand was touched: %q, %v, %d nodes", s, err, len(g.Nodes))
	}
}

func TestDeadCodeKeepsInPlaceOps(t *testing.T) {
	g := ir.NewGraph()
	x := &ir.Value{Name: "x", Meta: &ir.TensorMeta{DType: ir.Float32}}
	mk := func(target, name string, in *ir.Value) *ir.Node {
		v := &ir.Value{Name: name, Meta: &ir.TensorMeta{DType: ir.Float32}}
		n := &ir.Node{Target: target, Args: []ir.Arg{{Kind: ir.ArgTensor, Values: []*ir.Value{in}}}, Outputs: []*ir.Value{v}}
		v.Producer = n
		return n
	}
	a := mk("aten.relu.default", "a", x)
	unused := mk("aten.neg.default", "b", a.Outputs[0])
	inplace := mk("aten.copy_.default", "c", a.Outputs[0])
	g.Nodes = []*ir.Node{a, unused, inplace}
	g.Outputs = []ir.OutputSpec{{Kind: ir.UserOutput, Value: a.Outputs[0]}}
	s, err := DeadCodeElimination{}.Run(g)
	if err != nil || s != "removed 1 dead node(s)" || targets(g) != "aten.relu.default aten.copy_.default" {
		t.Errorf("%q, %v, %s", s, err, targets(g))
	}
}

func TestSelect(t *testing.T) {
	for _, tc := range []struct {
		spec string
		n    int
		err  string
	}{
		{"recommended", 1, ""}, {"none", 0, ""}, {"RemoveNoopExpandCopyPass,DeadCodeElimination", 2, ""},
		{"NoSuchPass", 0, `unknown pass "NoSuchPass"`},
	} {
		ps, err := Select(tc.spec, []Pass{RemoveNoopExpandCopy{}})
		if (err != nil) != (tc.err != "") || (err != nil && !strings.Contains(err.Error(), tc.err)) || len(ps) != tc.n {
			t.Errorf("Select(%q) = %d passes, %v", tc.spec, len(ps), err)
		}
	}
	m := NewManager(RemoveNoopExpandCopy{})
	if err := m.Disable("RemoveNoopExpandCopyPass"); err != nil {
		t.Fatal(err)
	}
	if r, _ := m.Run(ir.NewGraph()); len(r) != 0 {
		t.Errorf("a disabled pass ran: %+v", r)
	}
	if err := m.Disable("Nope"); err == nil {
		t.Error("disabling an unknown pass succeeded")
	}
}
