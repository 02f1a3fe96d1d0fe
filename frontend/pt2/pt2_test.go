package pt2

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/ir"
)

func TestZooArchives(t *testing.T) {
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		p, err := Open(m.PT2)
		if err != nil {
			t.Fatal(err)
		}
		g := p.Graph
		users, params, outs := 0, 0, 0
		for _, in := range g.Inputs {
			switch in.Kind {
			case ir.UserInput:
				users++
			case ir.Parameter, ir.Buffer:
				params++
				c := g.Constants[in.Target]
				if c == nil {
					t.Fatalf("%s %q has no data", in.Value.Name, in.Target)
				}
				if c.Meta.String() != in.Value.Meta.String() {
					t.Errorf("%q: data is %s, the graph says %s", in.Target, &c.Meta, in.Value.Meta)
				}
			}
		}
		for _, o := range g.Outputs {
			if o.Kind == ir.UserOutput {
				outs++
			}
		}
		if users != len(m.Inputs) || outs != len(m.Expected[zoo.Eager]) {
			t.Errorf("%d user inputs and %d outputs; fixtures have %d and %d", users, outs, len(m.Inputs), len(m.Expected[zoo.Eager]))
		}
		if len(g.Nodes) == 0 {
			t.Error("no nodes")
		}
		t.Logf("%s: %d nodes, %d params/buffers, schema %v, torch %s", m.Name, len(g.Nodes), params, p.SchemaVersion, p.TorchVersion)
	})
}

func TestDynamicBatch(t *testing.T) {
	for _, m := range zoo.Models(t) {
		if m.Name != "dynamic_batch" {
			continue
		}
		p, err := Open(m.PT2)
		if err != nil {
			t.Fatal(err)
		}
		g := p.Graph
		var x *ir.Value
		for _, in := range g.Inputs {
			if in.Kind == ir.UserInput {
				x = in.Value
			}
		}
		if x == nil || x.Meta.IsStatic() || x.Meta.Sizes[0].Size != 5 || x.Meta.Sizes[1] != (ir.Dim{Size: 32}) {
			t.Fatalf("input %v: want a symbolic batch (traced at 5) by 32", x.Meta)
		}
		sym := x.Meta.Sizes[0].Symbol
		if r, ok := g.Ranges[sym]; !ok || r.Min != 1 || r.Max != 8 {
			t.Errorf("range of %s = %+v, want [1, 8]", sym, r)
		}
		return
	}
	t.Fatal("no dynamic_batch model")
}

func FuzzParse(f *testing.F) {
	for _, m := range zoo.Models(f) {
		if b, err := os.ReadFile(m.PT2); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	// Compressed entries, which torch never writes, take the inflating paths: honest ones, and
	// a weight whose stream runs past its declared size.
	const weight, model = "data/weights/weight_0", "models/model.json"
	w, js := zooEntry(f, "conv_relu", weight), zooEntry(f, "conv_relu", model)
	f.Add(rezip(f, "conv_relu", map[string]swap{weight: honest(f, w), model: honest(f, js)}))
	f.Add(rezip(f, "conv_relu", map[string]swap{weight: {body: deflated(f, w, 0, 1, nil), deflate: true, declared: uint64(len(w))}}))
	// A complex result and a sparse layout, which the reader reads rather than refuses; and
	// data-dependent sizes: unbacked symbols, SymBool comparisons and runtime assertions.
	for _, c := range []string{"fft.rfft.1", "to_sparse.0", "argwhere.0", "nonzero.1"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "decomp", "cases", c+".pt2")); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = Parse(b)
	})
}
