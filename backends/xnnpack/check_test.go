package xnnpack

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/pte"
	"github.com/etgo/etgo/runtime"
)

// chainGraph is x (input) -> Add(x, c) = a -> Multiply(a, a) = y (output), c a constant, plus a
// value t nothing uses.
func chainGraph() *Graph {
	fp32 := schema.XNNDatatypexnn_datatype_fp32
	v := func(id uint32, ext uint32, flags uint32, c uint32) Value {
		return Value{ID: id, DType: fp32, Dims: []uint32{2, 3}, ExternalID: ext, Flags: flags, ConstantIdx: c}
	}
	return &Graph{
		NumExterns: 2, HasHeader: true,
		Values:    []Value{v(0, 0, flagExternalInput, 0), v(1, invalidID, 0, 1), v(2, invalidID, 0, 0), v(3, 1, flagExternalOutput, 0), v(4, invalidID, 0, 0)},
		Constants: []ConstantRef{{}, {Offset: 0, Size: 24}},
		Nodes: []Node{
			{Op: schema.XNodeUnionXNNAdd, Inputs: []uint32{0, 1}, Outputs: []uint32{2}},
			{Op: schema.XNodeUnionXNNMultiply, Inputs: []uint32{2, 2}, Outputs: []uint32{3}},
		},
	}
}

func TestSchedule(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(g *Graph)
		order  []int  // the schedule, when it is accepted
		want   string // the refusal
	}{
		{"as written", func(g *Graph) {}, []int{0, 1}, ""},
		{"out of order", func(g *Graph) { g.Nodes[0], g.Nodes[1] = g.Nodes[1], g.Nodes[0] }, []int{1, 0}, ""},
		{"dead node reading nothing", func(g *Graph) {
			g.Nodes = append(g.Nodes, Node{Op: schema.XNodeUnionXNNAbs, Inputs: []uint32{4}, Outputs: []uint32{4}})
		}, []int{0, 1}, ""},
		{"input passed through", func(g *Graph) { g.Values[0].Flags = flagExternalInput | flagExternalOutput }, []int{0, 1}, ""},
		{"producer dropped", func(g *Graph) { g.Nodes = g.Nodes[1:] }, nil, "node 0 (XNNMultiply): its input1, value 2, is not a graph input, a constant or the output of any node"},
		{"cycle", func(g *Graph) { g.Nodes[0].Inputs[0] = 3 }, nil, "the graph has a cycle"},
		{"reads its own output", func(g *Graph) { g.Nodes[1].Inputs[1] = 3 }, nil, "node 1 (XNNMultiply): reads value 3, which it computes itself"},
		{"written twice", func(g *Graph) {
			g.Nodes = append(g.Nodes, Node{Op: schema.XNodeUnionXNNAbs, Inputs: []uint32{0}, Outputs: []uint32{2}})
		}, nil, "writes value 2, which node 0 (XNNAdd) computes already"},
		{"writes a constant", func(g *Graph) { g.Nodes[0].Outputs[0], g.Nodes[1].Inputs = 1, []uint32{1, 1} }, nil, "node 0 (XNNAdd): writes value 1, a constant"},
		{"writes a graph input", func(g *Graph) { g.Values[3].Flags = flagExternalInput | flagExternalOutput }, nil, "node 1 (XNNMultiply): writes value 3, a graph input"},
		{"output nothing computes", func(g *Graph) { g.Nodes = g.Nodes[:1] }, nil, "graph output value 3 (external id 1) is not computed by any node"},
		{"no outputs", func(g *Graph) { g.Values[3].Flags = 0 }, nil, "the graph has no outputs"},
		{"missing operand", func(g *Graph) { g.Nodes[0].Inputs[1] = invalidID }, nil, "node 0 (XNNAdd): its input2 is missing"},
		{"external id twice", func(g *Graph) { g.Values[2].ExternalID = 1 }, nil, "values 2 and 3 both have external id 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := chainGraph()
			tc.mutate(g)
			order, err := g.schedule()
			if tc.want == "" {
				if err != nil || !slices.Equal(order, tc.order) {
					t.Errorf("schedule %v, %v; want %v", order, err, tc.order)
				}
				return
			}
			if !errors.Is(err, ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalidBlob mentioning %q", err, tc.want)
			}
		})
	}
}

// TestInferShapes corrupts one parameter or operand shape of a node and checks the refusal
// names the node, its operation and the inconsistency.
func TestInferShapes(t *testing.T) {
	conv := func(g *Graph) *Node { return &g.Nodes[0] }
	for _, tc := range []struct {
		name   string
		op     string // the op case to start from
		mutate func(g *Graph)
		want   string
	}{
		{"conv input channels", "conv 3x3 pad 1", func(g *Graph) { conv(g).Conv.GroupInputChannels = 4 }, "node 0 (XNNConv2d): input of shape [1 6 5 3] has 3 channels, the geometry needs 1 groups x 4"},
		{"conv filter", "conv 3x3 pad 1", func(g *Graph) { g.Values[1].Dims[1] = 5 }, "filter of shape [4 5 3 3], the geometry needs [4 3 3 3]"},
		{"conv bias", "conv 3x3 pad 1", func(g *Graph) { g.Values[2].Dims = []uint32{5} }, "bias of shape [5] for 4 output channels"},
		{"conv zero stride", "conv 3x3 pad 1", func(g *Graph) { conv(g).Conv.StrideW = 0 }, "each must be non-zero"},
		{"conv kernel larger than input", "conv 3x3 pad 1", func(g *Graph) { conv(g).Conv.DilationH = 9 }, "exceeds the padded input"},
		{"depthwise channels", "depthwise 3x3", func(g *Graph) { conv(g).Conv.Groups = 5 }, "depthwise convolution of 5 channels"},
		{"pool window", "max pool 3x3 s2 p1", func(g *Graph) { g.Nodes[0].Pool.PadTop = 3 }, "reaches a whole 3x3 window"},
		{"fc inner dim", "fully connected", func(g *Graph) { g.Values[1].Dims = []uint32{4, 6} }, "does not end in the filter's 6 input channels"},
		{"broadcast", "add broadcast", func(g *Graph) { g.Values[1].Dims[len(g.Values[1].Dims)-1] = 7 }, "do not broadcast"},
		{"reshape count", "reshape", func(g *Graph) { g.Nodes[0].NewShape = []uint32{7, 7} }, "cannot reshape"},
		{"transpose perm", "transpose", func(g *Graph) { g.Nodes[0].Perm[0] = g.Nodes[0].Perm[1] }, "is not a permutation"},
		{"slice size", "slice", func(g *Graph) { g.Nodes[0].Sizes[0] = 99 }, "is outside dimension 0"},
		{"pad entries", "constant pad", func(g *Graph) { g.Nodes[0].PrePadding = g.Nodes[0].PrePadding[1:] }, "pre- and"},
		{"concat sizes", "concatenate 3", func(g *Graph) { g.Values[1].Dims[0]++ }, "they differ outside axis"},
		{"concat axis", "concatenate 3", func(g *Graph) { g.Nodes[0].Axis = 9 }, "axis 9"},
		{"resize size", "resize bilinear align_corners=False", func(g *Graph) { g.Nodes[0].NewWidth = 0 }, "each must be in [1, 2^24)"},
		{"bmm inner dim", "batch matmul", func(g *Graph) { g.Values[1].Dims[len(g.Values[1].Dims)-2]++ }, "inner dimensions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := opCaseNamed(t, tc.op)
			g := graphFor(t, c)
			tc.mutate(g)
			order, err := g.schedule()
			if err != nil {
				t.Fatal(err)
			}
			_, err = g.inferShapes(order, func(i int) []int { return dimsOf(g.Values[i].Dims) })
			if !errors.Is(err, ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalidBlob mentioning %q", err, tc.want)
			}
		})
	}
}

// opCaseNamed returns the op case (testdata/op_cases.json) with this name.
func opCaseNamed(t *testing.T, name string) *opCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/op_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []opCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for i := range cases {
		if cases[i].Name == name {
			return &cases[i]
		}
	}
	t.Fatalf("no op case %q", name)
	return nil
}

// FuzzPlan: no blob panics the plan builder, its checks or, for the graphs it accepts whose
// values are small, the kernels. Each input pairs a blob with the named data (weights) of one
// of the official files, so mutated official blobs reach the checks that need their constants.
func FuzzPlan(f *testing.F) {
	blobs, named := zooBlobs(f)
	for i, b := range blobs {
		if len(b) < 32<<10 {
			f.Add(uint8(i), b)
		}
	}
	for _, b := range mutantBlobs(f) {
		f.Add(uint8(0), b)
	}
	f.Fuzz(func(t *testing.T, which uint8, b []byte) {
		g, err := ParseBlob(b)
		if err != nil {
			return
		}
		p, err := newPlan(g, named[int(which)%len(named)])
		if err != nil {
			return
		}
		shapes, err := p.g.inferShapes(p.order, func(i int) []int { return dimsOf(p.g.Values[i].Dims) })
		if err != nil {
			t.Fatalf("newPlan accepted a graph inferShapes refuses: %v", err)
		}
		total := 0
		for _, s := range shapes {
			total += numel(s)
		}
		if total > 1<<20 || runCost(p, shapes) > 1<<26 {
			return // too large to run here
		}
		args := make([]*runtime.EValue, g.NumExterns)
		for i := range g.Values {
			v := &g.Values[i]
			if v.Flags == 0 {
				continue
			}
			dt := runtime.Float32
			if p.quant[i] != nil {
				dt = runtime.Int8
			}
			dims := shapes[i]
			if dims == nil {
				dims = dimsOf(v.Dims)
			}
			tn, err := runtime.NewTensor(dt, dims...)
			if err != nil {
				return
			}
			args[v.ExternalID] = &runtime.EValue{Tag: runtime.TagTensor, Tensor: tn}
		}
		_ = p.execute(args)
	})
}

// runCost estimates a plan's multiply-adds: each output element times its node's window.
func runCost(p *plan, shapes [][]int) int {
	cost := 0
	for _, st := range p.steps {
		n := st.node
		window := 1
		switch {
		case n.Conv != nil:
			window = int(n.Conv.KernelH) * int(n.Conv.KernelW) * max(int(n.Conv.GroupInputChannels), 1)
		case n.Pool != nil:
			window = int(n.Pool.PoolH) * int(n.Pool.PoolW)
		case n.Op == schema.XNodeUnionXNNFullyConnected || n.Op == schema.XNodeUnionXNNBatchMatrixMultiply:
			if x := shapes[p.index[n.Inputs[0]]]; len(x) > 0 {
				window = x[len(x)-1]
			}
		}
		for _, id := range n.Outputs {
			cost += numel(shapes[p.index[id]]) * window
		}
	}
	return cost
}

// mutantBlobs returns the delegate blobs of the mutation campaign's corpus
// (testdata/mutants/corpus.json) that differ from their seed's, below 32 KiB.
func mutantBlobs(tb testing.TB) [][]byte {
	raw, err := os.ReadFile(testutil.Testdata(tb, "mutants", "corpus.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var corpus struct {
		Mutants []struct {
			Seed  string `json:"seed"`
			Edits []struct {
				Off  int    `json:"off"`
				Data string `json:"data"`
			} `json:"edits"`
		} `json:"mutants"`
	}
	if err := json.Unmarshal(raw, &corpus); err != nil {
		tb.Fatal(err)
	}
	var out [][]byte
	for _, m := range corpus.Mutants {
		data, err := os.ReadFile(filepath.Join(testutil.RepoRoot(tb), m.Seed))
		if err != nil {
			tb.Fatal(err)
		}
		orig := bytes.Clone(data)
		for _, e := range m.Edits {
			d, err := hex.DecodeString(e.Data)
			if err != nil || e.Off+len(d) > len(data) {
				tb.Fatalf("corpus edit %v", e)
			}
			copy(data[e.Off:], d)
		}
		f, err := pte.Parse(data)
		if err != nil {
			continue
		}
		g, _ := pte.Parse(orig)
		for i, d := range f.Program.ExecutionPlans[0].Delegates {
			b, err := f.DelegateData(&d)
			if err != nil || len(b) >= 32<<10 || i >= len(g.Program.ExecutionPlans[0].Delegates) {
				continue
			}
			if ob, err := g.DelegateData(&g.Program.ExecutionPlans[0].Delegates[i]); err == nil && !bytes.Equal(ob, b) {
				out = append(out, bytes.Clone(b))
			}
		}
	}
	return out
}

// TestIntermediateBudget: a corrupt parameter that makes the graph compute far more than it
// declares (a padding of millions on a 3x3 convolution) is refused; a small disagreement with a
// declared dim, which XNNPACK ignores, is not.
func TestIntermediateBudget(t *testing.T) {
	for _, tc := range []struct {
		pad  uint32
		want string
	}{{2, ""}, {4_000_000, "MB of intermediate values"}} {
		g := graphFor(t, opCaseNamed(t, "conv 3x3 pad 1"))
		g.Nodes[0].Conv.PadLeft = tc.pad
		order, err := g.schedule()
		if err != nil {
			t.Fatal(err)
		}
		shapes, err := g.inferShapes(order, func(i int) []int { return dimsOf(g.Values[i].Dims) })
		if err != nil {
			t.Fatal(err)
		}
		err = g.withinDeclared(shapes)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("pad %d: %v", tc.pad, err)
		case tc.want != "" && (!errors.Is(err, ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("pad %d: error %v, want ErrInvalidBlob mentioning %q", tc.pad, err, tc.want)
		}
	}
}
