package xnngraph

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	fb "github.com/etgo/etgo/internal/fbverify"
)

// The attention family: scaled dot-product attention, which the official partitioner can write
// and etgo decodes, verifies and encodes, but does not run (the run time refuses it by name).

var specSDPA = fb.NewTable("XNNScaledDotProductAttention", u32s("query_id", "key_id", "value_id", "scale_id", "mask_id", "output_id", "flags"))

func init() {
	register(nodeType{op: schema.XNodeUnionXNNScaledDotProductAttention, layout: layout{
		table: specSDPA,
		decode: func(tab flatbuffers.Table, n *Node) {
			var t schema.XNNScaledDotProductAttention
			t.Init(tab.Bytes, tab.Pos)
			n.Inputs = []uint32{t.QueryId(), t.KeyId(), t.ValueId(), t.ScaleId(), t.MaskId()}
			n.Outputs, n.Flags = []uint32{t.OutputId()}, t.Flags()
		},
		encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
			return u32Table(b, inID(n, 0), inID(n, 1), inID(n, 2), inID(n, 3), inID(n, 4), outID(n, 0), n.Flags), nil
		},
	}, roles: []string{"query", "key", "value", "scale", "mask"}, optional: []int{4},
		// No shape rule: the run time refuses the node before anything would use its shapes.
		infer: func(*Node, [][]int) ([][]int, error) { return nil, nil }})
}
