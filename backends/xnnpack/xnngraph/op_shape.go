package xnngraph

import (
	"fmt"
	"math"
	"slices"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	fb "github.com/etgo/etgo/internal/fbverify"
)

// The layout family: operations that move, select or pad elements without arithmetic on them
// (static transpose, reshape, slice and constant pad, concatenation of 2 to 5 inputs) and
// bilinear resizing, which also takes its output shape from parameters.

var (
	specCat       = fb.NewTable("_XNNCat", u32s("axis", "input1_id", "input2_id", "input3_id", "input4_id", "output_id", "flags", "input5_id"))
	specTranspose = fb.NewTable("XNNStaticTranspose", fb.Scalar("num_dims", 4), fb.VecScalar("perm", 4), u32s("input_id", "output_id", "flags"))
	specReshape   = fb.NewTable("XNNStaticReshape", fb.Scalar("num_dims", 4), fb.VecScalar("new_shape", 4), u32s("input_id", "output_id", "flags"))
	specSlice     = fb.NewTable("XNNStaticSlice", fb.Scalar("num_dims", 4), fb.VecScalar("offsets", 4), fb.VecScalar("sizes", 4),
		u32s("input_id", "output_id", "flags"))
	specPad = fb.NewTable("XNNStaticConstantPad", fb.VecScalar("pre_paddings", 4), fb.VecScalar("post_paddings", 4),
		fb.Scalar("padding_value", 4), u32s("input_id", "output_id", "flags"))
	specResize = fb.NewTable("XNNStaticResizeBilinear2D", u32s("new_height", "new_width", "input_id", "output_id", "flags"))
)

// catLayout is _XNNCat's codec for k inputs (the table always has five slots).
func catLayout(k int) layout {
	return layout{
		table: specCat,
		decode: func(tab flatbuffers.Table, n *Node) {
			var t schema.XNNCat
			t.Init(tab.Bytes, tab.Pos)
			n.Inputs = []uint32{t.Input1Id(), t.Input2Id(), t.Input3Id(), t.Input4Id(), t.Input5Id()}[:k]
			n.Outputs, n.Flags, n.Axis = []uint32{t.OutputId()}, t.Flags(), t.Axis()
		},
		encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
			return u32Table(b, n.Axis, inID(n, 0), inID(n, 1), inID(n, 2), inID(n, 3), outID(n, 0), n.Flags, inID(n, 4)), nil
		},
	}
}

func init() {
	register(nodeType{op: schema.XNodeUnionXNNStaticTranspose, layout: layout{
		table: specTranspose,
		decode: func(tab flatbuffers.Table, n *Node) {
			var t schema.XNNStaticTranspose
			t.Init(tab.Bytes, tab.Pos)
			n.Perm = uint32s(t.PermLength(), t.Perm)
			n.Inputs, n.Outputs, n.Flags = []uint32{t.InputId()}, []uint32{t.OutputId()}, t.Flags()
		},
		encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
			v := u32Vector(b, n.Perm)
			schema.XNNStaticTransposeStart(b)
			schema.XNNStaticTransposeAddNumDims(b, uint32(len(n.Perm)))
			schema.XNNStaticTransposeAddPerm(b, v)
			schema.XNNStaticTransposeAddInputId(b, inID(n, 0))
			schema.XNNStaticTransposeAddOutputId(b, outID(n, 0))
			schema.XNNStaticTransposeAddFlags(b, n.Flags)
			return schema.XNNStaticTransposeEnd(b), nil
		},
	}, infer: oneOutput(inferTranspose)})
	register(nodeType{op: schema.XNodeUnionXNNStaticReshape, layout: layout{
		table: specReshape,
		decode: func(tab flatbuffers.Table, n *Node) {
			var t schema.XNNStaticReshape
			t.Init(tab.Bytes, tab.Pos)
			n.NewShape = uint32s(t.NewShapeLength(), t.NewShape)
			n.Inputs, n.Outputs, n.Flags = []uint32{t.InputId()}, []uint32{t.OutputId()}, t.Flags()
		},
		encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
			v := u32Vector(b, n.NewShape)
			schema.XNNStaticReshapeStart(b)
			schema.XNNStaticReshapeAddNumDims(b, uint32(len(n.NewShape)))
			schema.XNNStaticReshapeAddNewShape(b, v)
			schema.XNNStaticReshapeAddInputId(b, inID(n, 0))
			schema.XNNStaticReshapeAddOutputId(b, outID(n, 0))
			schema.XNNStaticReshapeAddFlags(b, n.Flags)
			return schema.XNNStaticReshapeEnd(b), nil
		},
	}, infer: oneOutput(inferReshape)})
	register(nodeType{op: schema.XNodeUnionXNNStaticSlice, layout: layout{
		table: specSlice,
		decode: func(tab flatbuffers.Table, n *Node) {
			var t schema.XNNStaticSlice
			t.Init(tab.Bytes, tab.Pos)
			n.Offsets, n.Sizes = uint32s(t.OffsetsLength(), t.Offsets), uint32s(t.SizesLength(), t.Sizes)
			n.Inputs, n.Outputs, n.Flags = []uint32{t.InputId()}, []uint32{t.OutputId()}, t.Flags()
		},
		encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
			offs, sizes := u32Vector(b, n.Offsets), u32Vector(b, n.Sizes)
			schema.XNNStaticSliceStart(b)
			schema.XNNStaticSliceAddNumDims(b, uint32(len(n.Offsets)))
			schema.XNNStaticSliceAddOffsets(b, offs)
			schema.XNNStaticSliceAddSizes(b, sizes)
			schema.XNNStaticSliceAddInputId(b, inID(n, 0))
			schema.XNNStaticSliceAddOutputId(b, outID(n, 0))
			schema.XNNStaticSliceAddFlags(b, n.Flags)
			return schema.XNNStaticSliceEnd(b), nil
		},
	}, infer: oneOutput(inferSlice)})
	register(nodeType{op: schema.XNodeUnionXNNStaticConstantPad, layout: layout{
		table: specPad,
		decode: func(tab flatbuffers.Table, n *Node) {
			var t schema.XNNStaticConstantPad
			t.Init(tab.Bytes, tab.Pos)
			n.PrePadding, n.PostPadding = uint32s(t.PrePaddingsLength(), t.PrePaddings), uint32s(t.PostPaddingsLength(), t.PostPaddings)
			n.PadValue = t.PaddingValue()
			n.Inputs, n.Outputs, n.Flags = []uint32{t.InputId()}, []uint32{t.OutputId()}, t.Flags()
		},
		encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
			pre, post := u32Vector(b, n.PrePadding), u32Vector(b, n.PostPadding)
			schema.XNNStaticConstantPadStart(b)
			schema.XNNStaticConstantPadAddPrePaddings(b, pre)
			schema.XNNStaticConstantPadAddPostPaddings(b, post)
			schema.XNNStaticConstantPadAddPaddingValue(b, n.PadValue)
			schema.XNNStaticConstantPadAddInputId(b, inID(n, 0))
			schema.XNNStaticConstantPadAddOutputId(b, outID(n, 0))
			schema.XNNStaticConstantPadAddFlags(b, n.Flags)
			return schema.XNNStaticConstantPadEnd(b), nil
		},
	}, infer: oneOutput(inferPad)})
	cat := []string{"input1", "input2", "input3", "input4", "input5"}
	for i, op := range []schema.XNodeUnion{schema.XNodeUnionXNNConcatenate2, schema.XNodeUnionXNNConcatenate3,
		schema.XNodeUnionXNNConcatenate4, schema.XNodeUnionXNNConcatenate5} {
		register(nodeType{op: op, layout: catLayout(2 + i), roles: cat, infer: oneOutput(inferConcat)})
	}
	register(nodeType{op: schema.XNodeUnionXNNStaticResizeBilinear2D, layout: layout{
		table: specResize,
		decode: func(tab flatbuffers.Table, n *Node) {
			var t schema.XNNStaticResizeBilinear2D
			t.Init(tab.Bytes, tab.Pos)
			n.NewHeight, n.NewWidth = t.NewHeight(), t.NewWidth()
			n.Inputs, n.Outputs, n.Flags = []uint32{t.InputId()}, []uint32{t.OutputId()}, t.Flags()
		},
		encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
			return u32Table(b, n.NewHeight, n.NewWidth, inID(n, 0), outID(n, 0), n.Flags), nil
		},
	}, infer: func(n *Node, in [][]int) ([][]int, error) {
		x := in[0]
		if len(x) != 4 {
			return nil, fmt.Errorf("input of shape %v is not 4-d NHWC", x)
		}
		if n.NewHeight == 0 || n.NewWidth == 0 || n.NewHeight >= 1<<24 || n.NewWidth >= 1<<24 {
			return nil, fmt.Errorf("output size %dx%d: each must be in [1, 2^24)", n.NewHeight, n.NewWidth)
		}
		return [][]int{{x[0], int(n.NewHeight), int(n.NewWidth), x[3]}}, nil
	}})
}

func inferTranspose(n *Node, in [][]int) ([]int, error) {
	x := in[0]
	r := len(x)
	if len(n.Perm) != r || r == 0 {
		return nil, fmt.Errorf("perm %v for an input of shape %v", n.Perm, x)
	}
	seen := make([]bool, r)
	out := make([]int, r)
	for i, d := range n.Perm {
		if int(d) >= r || seen[d] {
			return nil, fmt.Errorf("perm %v is not a permutation of 0..%d", n.Perm, r-1)
		}
		seen[d] = true
		out[i] = x[d]
	}
	return out, nil
}

func inferReshape(n *Node, in [][]int) ([]int, error) {
	x := in[0]
	if len(n.NewShape) > MaxDims {
		return nil, fmt.Errorf("new shape %v has more than %d dims", n.NewShape, MaxDims)
	}
	out := make([]int, len(n.NewShape))
	known, infer := 1, -1
	for i, d := range n.NewShape {
		if d > math.MaxInt32 {
			return nil, fmt.Errorf("new shape %v is out of range", n.NewShape)
		}
		out[i] = int(d)
		if d == 0 {
			if infer >= 0 {
				return nil, fmt.Errorf("new shape %v has more than one dimension to infer", n.NewShape)
			}
			infer = i
			continue
		}
		known *= int(d)
		if known > MaxValueElements {
			return nil, fmt.Errorf("new shape %v is too large", n.NewShape)
		}
	}
	if infer >= 0 {
		if known == 0 || Numel(x)%known != 0 {
			return nil, fmt.Errorf("cannot infer a dimension of %v from an input of shape %v", n.NewShape, x)
		}
		out[infer] = Numel(x) / known
	}
	if Numel(out) != Numel(x) {
		return nil, fmt.Errorf("cannot reshape an input of shape %v (%d elements) to %v (%d)", x, Numel(x), n.NewShape, Numel(out))
	}
	return out, nil
}

func inferSlice(n *Node, in [][]int) ([]int, error) {
	x := in[0]
	r := len(x)
	if len(n.Offsets) != r || len(n.Sizes) != r {
		return nil, fmt.Errorf("%d offsets and %d sizes for an input of shape %v", len(n.Offsets), len(n.Sizes), x)
	}
	out := make([]int, r)
	for i := range out {
		o, s := int(n.Offsets[i]), int(n.Sizes[i])
		if s == 0 {
			s = x[i] - o
		}
		if o < 0 || s <= 0 || o > x[i] || s > x[i]-o {
			return nil, fmt.Errorf("offset %d size %d is outside dimension %d of the input's %v", n.Offsets[i], n.Sizes[i], i, x)
		}
		out[i] = s
	}
	return out, nil
}

func inferPad(n *Node, in [][]int) ([]int, error) {
	x := in[0]
	r := len(x)
	if len(n.PrePadding) != r || len(n.PostPadding) != r {
		return nil, fmt.Errorf("%d pre- and %d post-paddings for an input of shape %v", len(n.PrePadding), len(n.PostPadding), x)
	}
	out := make([]int, r)
	for i := range out {
		if n.PrePadding[i] > 1<<20 || n.PostPadding[i] > 1<<20 {
			return nil, fmt.Errorf("padding %d+%d of dimension %d is out of range", n.PrePadding[i], n.PostPadding[i], i)
		}
		out[i] = x[i] + int(n.PrePadding[i]) + int(n.PostPadding[i])
	}
	return out, nil
}

func inferConcat(n *Node, in [][]int) ([]int, error) {
	first := in[0]
	ax := int(n.Axis)
	if n.Axis >= uint32(len(first)) {
		return nil, fmt.Errorf("axis %d for inputs of rank %d", n.Axis, len(first))
	}
	out := slices.Clone(first)
	out[ax] = 0
	for j, d := range in {
		if len(d) != len(first) {
			return nil, fmt.Errorf("input %d has shape %v, input 1 %v: ranks differ", j+1, d, first)
		}
		for i := range d {
			if i != ax && d[i] != first[i] {
				return nil, fmt.Errorf("input %d has shape %v, input 1 %v: they differ outside axis %d", j+1, d, first, ax)
			}
		}
		out[ax] += d[ax]
	}
	return out, nil
}
