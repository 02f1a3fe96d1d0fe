package xnngraph

import (
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	fb "github.com/etgo/etgo/internal/fbverify"
)

// The pooling family: max and average pooling (one table, _XNNPooling2D), argmax pooling (its
// own table: no stride or dilation, a second output for the indices) and global average
// pooling (the unary layout, the keep-dims flag).

var (
	specPool = fb.NewTable("_XNNPooling2D", u32s("padding_top", "padding_right", "padding_bottom", "padding_left",
		"pooling_height", "pooling_width", "stride_height", "stride_width", "dilation_height", "dilation_width",
		"input_id", "output_id", "flags"))
	specArgMaxPool = fb.NewTable("XNNArgMaxPooling2d", u32s("padding_top", "padding_right", "padding_bottom", "padding_left",
		"pooling_height", "pooling_width", "input_id", "output_value_id", "output_index_id", "flags"))
)

// poolLayout is _XNNPooling2D's codec; without dilation (average pooling) the dilation fields
// decode as 1: the official runtime does not read them (the writer leaves them 0).
func poolLayout(dilation bool) layout {
	return layout{
		table: specPool,
		decode: func(tab flatbuffers.Table, n *Node) {
			var t schema.XNNPooling2D
			t.Init(tab.Bytes, tab.Pos)
			n.Pool = &PoolParams{PadTop: t.PaddingTop(), PadRight: t.PaddingRight(), PadBottom: t.PaddingBottom(), PadLeft: t.PaddingLeft(),
				PoolH: t.PoolingHeight(), PoolW: t.PoolingWidth(), StrideH: t.StrideHeight(), StrideW: t.StrideWidth(),
				DilationH: t.DilationHeight(), DilationW: t.DilationWidth()}
			if !dilation {
				n.Pool.DilationH, n.Pool.DilationW = 1, 1
			}
			n.Inputs, n.Outputs, n.Flags = []uint32{t.InputId()}, []uint32{t.OutputId()}, t.Flags()
		},
		encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
			p := n.Pool
			if p == nil {
				return 0, fmt.Errorf("%s has no pooling parameters", n.OpName())
			}
			return u32Table(b, p.PadTop, p.PadRight, p.PadBottom, p.PadLeft, p.PoolH, p.PoolW, p.StrideH, p.StrideW,
				p.DilationH, p.DilationW, inID(n, 0), outID(n, 0), n.Flags), nil
		},
	}
}

func init() {
	register(nodeType{op: schema.XNodeUnionXNNMaxPooling2d, layout: poolLayout(true), outputRange: true, infer: oneOutput(inferPool)})
	register(nodeType{op: schema.XNodeUnionXNNAvgPooling2d, layout: poolLayout(false), outputRange: true, infer: oneOutput(inferPool)})
	register(nodeType{op: schema.XNodeUnionXNNArgMaxPooling2d, layout: layout{
		table: specArgMaxPool,
		decode: func(tab flatbuffers.Table, n *Node) {
			var t schema.XNNArgMaxPooling2d
			t.Init(tab.Bytes, tab.Pos)
			// The window moves by its own size.
			n.Pool = &PoolParams{PadTop: t.PaddingTop(), PadRight: t.PaddingRight(), PadBottom: t.PaddingBottom(), PadLeft: t.PaddingLeft(),
				PoolH: t.PoolingHeight(), PoolW: t.PoolingWidth(), StrideH: t.PoolingHeight(), StrideW: t.PoolingWidth(), DilationH: 1, DilationW: 1}
			n.Inputs, n.Outputs, n.Flags = []uint32{t.InputId()}, []uint32{t.OutputValueId(), t.OutputIndexId()}, t.Flags()
		},
		encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
			p := n.Pool
			if p == nil {
				return 0, fmt.Errorf("%s has no pooling parameters", n.OpName())
			}
			return u32Table(b, p.PadTop, p.PadRight, p.PadBottom, p.PadLeft, p.PoolH, p.PoolW, inID(n, 0), outID(n, 0), outID(n, 1), n.Flags), nil
		},
	}, infer: func(n *Node, in [][]int) ([][]int, error) {
		d, err := inferPool(n, in)
		if err != nil {
			return nil, err
		}
		return [][]int{d, d}, nil
	}})
	register(nodeType{op: schema.XNodeUnionXNNGlobalAvgPooling2d, layout: layout1x1, outputRange: true,
		declared: func(n *Node, inputs []*Value) error {
			// XNNPACK picks the axes it averages (the two before the last) from the rank its
			// input is declared with, not the rank it gets.
			if inputs[0] == nil {
				return nil // (Schedule refuses the missing operand)
			}
			if d := inputs[0].Dims; len(d) != 4 {
				return fmt.Errorf("input value %d is declared %d-d %v; global pooling averages H and W of a 4-d NHWC value", n.Inputs[0], len(d), d)
			}
			return nil
		},
		infer: func(n *Node, in [][]int) ([][]int, error) {
			x := in[0]
			if len(x) != 4 {
				return nil, fmt.Errorf("input of shape %v is not 4-d NHWC", x)
			}
			if n.Flags&FlagKeepDims != 0 {
				return [][]int{{x[0], 1, 1, x[3]}}, nil
			}
			return [][]int{{x[0], x[3]}}, nil
		}})
}

func inferPool(n *Node, in [][]int) ([]int, error) {
	x := in[0]
	pp := n.Pool
	if pp.PoolH == 0 || pp.PoolW == 0 || pp.StrideH == 0 || pp.StrideW == 0 || pp.DilationH == 0 || pp.DilationW == 0 {
		return nil, fmt.Errorf("pool %dx%d, stride %dx%d, dilation %dx%d: each must be non-zero", pp.PoolH, pp.PoolW, pp.StrideH, pp.StrideW, pp.DilationH, pp.DilationW)
	}
	if len(x) != 4 {
		return nil, fmt.Errorf("input of shape %v is not 4-d NHWC", x)
	}
	if pp.PadTop >= pp.PoolH || pp.PadBottom >= pp.PoolH || pp.PadLeft >= pp.PoolW || pp.PadRight >= pp.PoolW {
		// A window entirely in the padding has no input to take the maximum or mean of.
		return nil, fmt.Errorf("padding %d,%d,%d,%d (top, right, bottom, left) reaches a whole %dx%d window", pp.PadTop, pp.PadRight, pp.PadBottom, pp.PadLeft, pp.PoolH, pp.PoolW)
	}
	if pp.PoolH > 1<<20 || pp.PoolW > 1<<20 {
		return nil, fmt.Errorf("pool %dx%d is out of range", pp.PoolH, pp.PoolW)
	}
	OH, err := convExtent("pooling", x[1], pp.PadTop, pp.PadBottom, pp.PoolH, pp.StrideH, pp.DilationH)
	if err != nil {
		return nil, err
	}
	OW, err := convExtent("pooling", x[2], pp.PadLeft, pp.PadRight, pp.PoolW, pp.StrideW, pp.DilationW)
	if err != nil {
		return nil, err
	}
	return []int{x[0], OH, OW, x[3]}, nil
}
