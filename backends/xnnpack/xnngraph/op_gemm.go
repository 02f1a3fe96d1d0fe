package xnngraph

import (
	"fmt"
	"slices"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	fb "github.com/etgo/etgo/internal/fbverify"
)

// The matrix-product family: fully connected layers (a filter and an optional bias, the
// transpose-weights flag) and batch matrix multiplication (broadcast batch dims).

var specFC = fb.NewTable("XNNFullyConnected", u32s("input1_id", "filter_id", "bias_id", "output_id", "flags"))

func init() {
	register(nodeType{op: schema.XNodeUnionXNNFullyConnected, layout: layout{
		table: specFC,
		decode: func(tab flatbuffers.Table, n *Node) {
			var t schema.XNNFullyConnected
			t.Init(tab.Bytes, tab.Pos)
			n.Inputs, n.Outputs, n.Flags = []uint32{t.Input1Id(), t.FilterId(), t.BiasId()}, []uint32{t.OutputId()}, t.Flags()
		},
		encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
			return u32Table(b, inID(n, 0), inID(n, 1), inID(n, 2), outID(n, 0), n.Flags), nil
		},
	}, roles: []string{"input", "filter", "bias"}, optional: []int{2}, outputRange: true, infer: oneOutput(inferFC)})
	register(nodeType{op: schema.XNodeUnionXNNBatchMatrixMultiply, layout: layout2x1, roles: []string{"input1", "input2"}, infer: oneOutput(inferBMM)})
}

func inferFC(n *Node, in [][]int) ([]int, error) {
	x, w, b := in[0], in[1], in[2]
	if len(w) != 2 {
		return nil, fmt.Errorf("filter of shape %v is not 2-d", w)
	}
	if len(x) == 0 {
		return nil, fmt.Errorf("rank-0 input")
	}
	oc, ic := w[0], w[1]
	if n.Flags&FlagTransposeWeights != 0 {
		oc, ic = ic, oc
	}
	if x[len(x)-1] != ic {
		return nil, fmt.Errorf("input of shape %v does not end in the filter's %d input channels (filter %v)", x, ic, w)
	}
	if b != nil && Numel(b) != oc {
		return nil, fmt.Errorf("bias of shape %v for %d output channels", b, oc)
	}
	return append(slices.Clone(x[:len(x)-1]), oc), nil
}

func inferBMM(n *Node, in [][]int) ([]int, error) {
	a, b := in[0], in[1]
	if len(a) < 2 || len(b) < 2 {
		return nil, fmt.Errorf("inputs of shapes %v and %v: both need at least 2 dims", a, b)
	}
	m, k := a[len(a)-2], a[len(a)-1]
	kb, nn := b[len(b)-2], b[len(b)-1]
	if n.Flags&FlagTransposeWeights != 0 {
		kb, nn = nn, kb
	}
	if k != kb {
		return nil, fmt.Errorf("inner dimensions of %v and %v differ (%d, %d)", a, b, k, kb)
	}
	batch, err := BroadcastDims(a[:len(a)-2], b[:len(b)-2])
	if err != nil {
		return nil, fmt.Errorf("batch dimensions of %v and %v do not broadcast", a, b)
	}
	return append(slices.Clone(batch), m, nn), nil
}
