package partition

import (
	"strings"
	"testing"

	"github.com/etgo/etgo/ir"
)

func order(g *ir.Graph) string {
	var names []string
	for _, n := range g.Nodes {
		names = append(names, n.Name)
	}
	return strings.Join(names, " ")
}

// TestLegalize: the graph is re-sorted breadth-first from the inputs, as torch.fx's
// legalize_graph does; size arithmetic and scalar_tensor jump the queue; a getitem between a
// multi-output node and its readers counts as a step; the call just made is its inputs' last user.
func TestLegalize(t *testing.T) {
	t.Run("breadth first", func(t *testing.T) {
		g := build(t, "a: x\nb: a\nc: x\nd: b, c")
		legalize(g, nil)
		if got := order(g); got != "a c b d" {
			t.Errorf("order %s, want a c b d", got)
		}
	})
	t.Run("prioritized", func(t *testing.T) {
		g := build(t, "a: x\nb: x\ns: a\nc: b, s")
		for _, n := range g.Nodes {
			if n.Name == "s" {
				n.Target = "aten.scalar_tensor.default"
			}
		}
		legalize(g, nil)
		// a, b ready; a releases s, which goes to the front, before b.
		if got := order(g); got != "a s b c" {
			t.Errorf("order %s, want a s b c", got)
		}
	})
	t.Run("getitem is a step", func(t *testing.T) {
		g := build(t, "m: x\nu: m\nv: x\nw: v\nz: u, w")
		m := g.Nodes[0]
		second := &ir.Value{Name: "m_1", Meta: &ir.TensorMeta{DType: ir.Float32}, Producer: m}
		m.Outputs = append(m.Outputs, second)
		g.Nodes[1].Args = append(g.Nodes[1].Args, ir.Arg{Kind: ir.ArgTensor, Values: []*ir.Value{second}})
		legalize(g, nil)
		// x → m, v; m → getitems → u; v → w: w is one step nearer than u.
		if got := order(g); got != "m v w u z" {
			t.Errorf("order %s, want m v w u z", got)
		}
	})
	t.Run("the new call is its inputs' last user", func(t *testing.T) {
		g := build(t, "call: x\na: x\nb: call\nc: a")
		legalize(g, g.Nodes[0])
		if got := order(g); got != "a call c b" {
			t.Errorf("order %s, want a call c b", got)
		}
	})
}
