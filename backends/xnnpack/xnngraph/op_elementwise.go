package xnngraph

import (
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	fb "github.com/etgo/etgo/internal/fbverify"
)

// The elementwise family: unary operations and activations (one input, the output of its
// shape), binary operations (numpy broadcasting), PReLU, and softmax, which shares the unary
// layout and shape.

var (
	specELU   = fb.NewTable("XNNELU", fb.Scalar("alpha", 4), u32s("input_id", "output_id", "flags"))
	specLeaky = fb.NewTable("XNNLeakyReLU", fb.Scalar("negative_slope", 4), u32s("input_id", "output_id", "flags"))
)

func init() {
	for _, op := range []schema.XNodeUnion{
		schema.XNodeUnionXNNSigmoid, schema.XNodeUnionXNNFloor, schema.XNodeUnionXNNConvert,
		schema.XNodeUnionXNNSquareRoot, schema.XNodeUnionXNNCeiling, schema.XNodeUnionXNNHardswish,
		schema.XNodeUnionXNNNegate, schema.XNodeUnionXNNSquare, schema.XNodeUnionXNNAbs,
		schema.XNodeUnionXNNReciprocalSquareRoot, schema.XNodeUnionXNNLog, schema.XNodeUnionXNNGelu,
		schema.XNodeUnionXNNTanh, schema.XNodeUnionXNNExp, schema.XNodeUnionXNNSin, schema.XNodeUnionXNNCopy,
		schema.XNodeUnionXNNCos,
	} {
		register(nodeType{op: op, layout: layout1x1, infer: sameShape})
	}
	register(nodeType{op: schema.XNodeUnionXNNClamp, layout: layout1x1, outputRange: true, infer: sameShape})
	register(nodeType{op: schema.XNodeUnionXNNSoftmax, layout: layout1x1, infer: func(_ *Node, in [][]int) ([][]int, error) {
		if len(in[0]) == 0 {
			return nil, fmt.Errorf("softmax of a rank-0 input")
		}
		return [][]int{in[0]}, nil
	}})
	register(nodeType{op: schema.XNodeUnionXNNELU, layout: layout{
		table: specELU,
		decode: func(tab flatbuffers.Table, n *Node) {
			var t schema.XNNELU
			t.Init(tab.Bytes, tab.Pos)
			n.Alpha = t.Alpha()
			n.Inputs, n.Outputs, n.Flags = []uint32{t.InputId()}, []uint32{t.OutputId()}, t.Flags()
		},
		encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
			schema.XNNELUStart(b)
			schema.XNNELUAddAlpha(b, n.Alpha)
			schema.XNNELUAddInputId(b, inID(n, 0))
			schema.XNNELUAddOutputId(b, outID(n, 0))
			schema.XNNELUAddFlags(b, n.Flags)
			return schema.XNNELUEnd(b), nil
		},
	}, infer: sameShape})
	register(nodeType{op: schema.XNodeUnionXNNLeakyReLU, layout: layout{
		table: specLeaky,
		decode: func(tab flatbuffers.Table, n *Node) {
			var t schema.XNNLeakyReLU
			t.Init(tab.Bytes, tab.Pos)
			n.Alpha = t.NegativeSlope()
			n.Inputs, n.Outputs, n.Flags = []uint32{t.InputId()}, []uint32{t.OutputId()}, t.Flags()
		},
		encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
			schema.XNNLeakyReLUStart(b)
			schema.XNNLeakyReLUAddNegativeSlope(b, n.Alpha)
			schema.XNNLeakyReLUAddInputId(b, inID(n, 0))
			schema.XNNLeakyReLUAddOutputId(b, outID(n, 0))
			schema.XNNLeakyReLUAddFlags(b, n.Flags)
			return schema.XNNLeakyReLUEnd(b), nil
		},
	}, infer: sameShape})

	binary := []string{"input1", "input2"}
	for _, op := range []schema.XNodeUnion{schema.XNodeUnionXNNAdd, schema.XNodeUnionXNNSubtract, schema.XNodeUnionXNNMultiply, schema.XNodeUnionXNNDiv} {
		register(nodeType{op: op, layout: layout2x1, roles: binary, outputRange: true, infer: broadcast})
	}
	for _, op := range []schema.XNodeUnion{schema.XNodeUnionXNNMinimum, schema.XNodeUnionXNNMaximum} {
		register(nodeType{op: op, layout: layout2x1, roles: binary, infer: broadcast})
	}
	register(nodeType{op: schema.XNodeUnionXNNPReLU, layout: layout2x1, roles: []string{"input", "slope"}, infer: inferPReLU})
}

func broadcast(_ *Node, in [][]int) ([][]int, error) {
	d, err := BroadcastDims(in[0], in[1])
	if err != nil {
		return nil, fmt.Errorf("inputs of shapes %v and %v do not broadcast", in[0], in[1])
	}
	return [][]int{d}, nil
}

// inferPReLU: the slope broadcasts as a block of the input's trailing dims (one value, one per
// channel, or one per element), which is how the kernel indexes it.
func inferPReLU(_ *Node, in [][]int) ([][]int, error) {
	x, s := in[0], in[1]
	if inner := TrailingBroadcast(s, x); Numel(s) != 1 && (inner == 0 || inner != Numel(s)) {
		return nil, fmt.Errorf("slope of shape %v does not broadcast over the input's %v as its trailing dims", s, x)
	}
	return [][]int{x}, nil
}
