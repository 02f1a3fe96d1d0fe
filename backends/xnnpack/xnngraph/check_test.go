package xnngraph_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/xnntest"
)

// chainGraph is x (input) -> Add(x, c) = a -> Multiply(a, a) = y (output), c a constant, plus a
// value t nothing uses.
func chainGraph() *xnngraph.Graph {
	fp32 := schema.XNNDatatypexnn_datatype_fp32
	v := func(id uint32, ext uint32, flags uint32, c uint32) xnngraph.Value {
		return xnngraph.Value{ID: id, DType: fp32, Dims: []uint32{2, 3}, ExternalID: ext, Flags: flags, ConstantIdx: c}
	}
	return &xnngraph.Graph{
		NumExterns: 2, HasHeader: true,
		Values:    []xnngraph.Value{v(0, 0, xnngraph.FlagExternalInput, 0), v(1, xnngraph.InvalidID, 0, 1), v(2, xnngraph.InvalidID, 0, 0), v(3, 1, xnngraph.FlagExternalOutput, 0), v(4, xnngraph.InvalidID, 0, 0)},
		Constants: []xnngraph.ConstantRef{{}, {Offset: 0, Size: 24}},
		Nodes: []xnngraph.Node{
			{Op: schema.XNodeUnionXNNAdd, Inputs: []uint32{0, 1}, Outputs: []uint32{2}},
			{Op: schema.XNodeUnionXNNMultiply, Inputs: []uint32{2, 2}, Outputs: []uint32{3}},
		},
	}
}

func TestSchedule(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(g *xnngraph.Graph)
		order  []int  // the Schedule, when it is accepted
		want   string // the refusal
	}{
		{"as written", func(g *xnngraph.Graph) {}, []int{0, 1}, ""},
		{"out of order", func(g *xnngraph.Graph) { g.Nodes[0], g.Nodes[1] = g.Nodes[1], g.Nodes[0] }, []int{1, 0}, ""},
		{"dead node reading nothing", func(g *xnngraph.Graph) {
			g.Nodes = append(g.Nodes, xnngraph.Node{Op: schema.XNodeUnionXNNAbs, Inputs: []uint32{4}, Outputs: []uint32{4}})
		}, []int{0, 1}, ""},
		{"input passed through", func(g *xnngraph.Graph) { g.Values[0].Flags = xnngraph.FlagExternalInput | xnngraph.FlagExternalOutput }, []int{0, 1}, ""},
		{"producer dropped", func(g *xnngraph.Graph) { g.Nodes = g.Nodes[1:] }, nil, "node 0 (XNNMultiply): its input1, value 2, is not a graph input, a constant or the output of any node"},
		{"cycle", func(g *xnngraph.Graph) { g.Nodes[0].Inputs[0] = 3 }, nil, "the graph has a cycle"},
		{"reads its own output", func(g *xnngraph.Graph) { g.Nodes[1].Inputs[1] = 3 }, nil, "node 1 (XNNMultiply): reads value 3, which it computes itself"},
		{"written twice", func(g *xnngraph.Graph) {
			g.Nodes = append(g.Nodes, xnngraph.Node{Op: schema.XNodeUnionXNNAbs, Inputs: []uint32{0}, Outputs: []uint32{2}})
		}, nil, "writes value 2, which node 0 (XNNAdd) computes already"},
		{"writes a constant", func(g *xnngraph.Graph) { g.Nodes[0].Outputs[0], g.Nodes[1].Inputs = 1, []uint32{1, 1} }, nil, "node 0 (XNNAdd): writes value 1, a constant"},
		{"writes a graph input", func(g *xnngraph.Graph) { g.Values[3].Flags = xnngraph.FlagExternalInput | xnngraph.FlagExternalOutput }, nil, "node 1 (XNNMultiply): writes value 3, a graph input"},
		{"output nothing computes", func(g *xnngraph.Graph) { g.Nodes = g.Nodes[:1] }, nil, "graph output value 3 (external id 1) is not computed by any node"},
		{"no outputs", func(g *xnngraph.Graph) { g.Values[3].Flags = 0 }, nil, "the graph has no outputs"},
		{"missing operand", func(g *xnngraph.Graph) { g.Nodes[0].Inputs[1] = xnngraph.InvalidID }, nil, "node 0 (XNNAdd): its input2 is missing"},
		{"external id twice", func(g *xnngraph.Graph) { g.Values[2].ExternalID = 1 }, nil, "values 2 and 3 both have external id 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := chainGraph()
			tc.mutate(g)
			order, err := g.Schedule()
			if tc.want == "" {
				if err != nil || !slices.Equal(order, tc.order) {
					t.Errorf("Schedule %v, %v; want %v", order, err, tc.order)
				}
				return
			}
			if !errors.Is(err, xnngraph.ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalidBlob mentioning %q", err, tc.want)
			}
		})
	}
}

// TestInferShapes corrupts one parameter or operand shape of a node and checks the refusal
// names the node, its operation and the inconsistency.
func TestInferShapes(t *testing.T) {
	conv := func(g *xnngraph.Graph) *xnngraph.Node { return &g.Nodes[0] }
	for _, tc := range []struct {
		name   string
		op     string // the op case to start from
		mutate func(g *xnngraph.Graph)
		want   string
	}{
		{"conv input channels", "conv 3x3 pad 1", func(g *xnngraph.Graph) { conv(g).Conv.GroupInputChannels = 4 }, "node 0 (XNNConv2d): input of shape [1 6 5 3] has 3 channels, the geometry needs 1 groups x 4"},
		{"conv filter", "conv 3x3 pad 1", func(g *xnngraph.Graph) { g.Values[1].Dims[1] = 5 }, "filter of shape [4 5 3 3], the geometry needs [4 3 3 3]"},
		{"conv bias", "conv 3x3 pad 1", func(g *xnngraph.Graph) { g.Values[2].Dims = []uint32{5} }, "bias of shape [5] for 4 output channels"},
		{"conv zero stride", "conv 3x3 pad 1", func(g *xnngraph.Graph) { conv(g).Conv.StrideW = 0 }, "each must be non-zero"},
		{"conv kernel larger than input", "conv 3x3 pad 1", func(g *xnngraph.Graph) { conv(g).Conv.DilationH = 9 }, "exceeds the padded input"},
		{"depthwise channels", "depthwise 3x3", func(g *xnngraph.Graph) { conv(g).Conv.Groups = 5 }, "depthwise convolution of 5 channels"},
		{"pool window", "max pool 3x3 s2 p1", func(g *xnngraph.Graph) { g.Nodes[0].Pool.PadTop = 3 }, "reaches a whole 3x3 window"},
		{"fc inner dim", "fully connected", func(g *xnngraph.Graph) { g.Values[1].Dims = []uint32{4, 6} }, "does not end in the filter's 6 input channels"},
		{"broadcast", "add broadcast", func(g *xnngraph.Graph) { g.Values[1].Dims[len(g.Values[1].Dims)-1] = 7 }, "do not broadcast"},
		{"reshape count", "reshape", func(g *xnngraph.Graph) { g.Nodes[0].NewShape = []uint32{7, 7} }, "cannot reshape"},
		{"transpose perm", "transpose", func(g *xnngraph.Graph) { g.Nodes[0].Perm[0] = g.Nodes[0].Perm[1] }, "is not a permutation"},
		{"slice size", "slice", func(g *xnngraph.Graph) { g.Nodes[0].Sizes[0] = 99 }, "is outside dimension 0"},
		{"pad entries", "constant pad", func(g *xnngraph.Graph) { g.Nodes[0].PrePadding = g.Nodes[0].PrePadding[1:] }, "pre- and"},
		{"concat sizes", "concatenate 3", func(g *xnngraph.Graph) { g.Values[1].Dims[0]++ }, "they differ outside axis"},
		{"concat axis", "concatenate 3", func(g *xnngraph.Graph) { g.Nodes[0].Axis = 9 }, "axis 9"},
		{"resize size", "resize bilinear align_corners=False", func(g *xnngraph.Graph) { g.Nodes[0].NewWidth = 0 }, "each must be in [1, 2^24)"},
		{"bmm inner dim", "batch matmul", func(g *xnngraph.Graph) { g.Values[1].Dims[len(g.Values[1].Dims)-2]++ }, "inner dimensions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := xnntest.OpCaseNamed(t, tc.op)
			g := xnntest.Graph(t, c)
			tc.mutate(g)
			order, err := g.Schedule()
			if err != nil {
				t.Fatal(err)
			}
			_, err = g.InferShapes(order, func(i int) []int { return xnngraph.DimsOf(g.Values[i].Dims) })
			if !errors.Is(err, xnngraph.ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalidBlob mentioning %q", err, tc.want)
			}
		})
	}
}
