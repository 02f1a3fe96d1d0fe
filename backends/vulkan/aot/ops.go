package aot

import (
	"slices"

	"github.com/etgo/etgo/ir"
)

// The operator-specific checks and storage choices of op_registry.py.

// posArg returns the i-th positional argument of n, or nil.
func posArg(n *ir.Node, i int) *ir.Arg {
	k := 0
	for j := range n.Args {
		if n.Args[j].KwargOnly {
			continue
		}
		if k == i {
			return &n.Args[j]
		}
		k++
	}
	return nil
}

// posTensor returns the tensor at positional argument i, or nil.
func posTensor(n *ir.Node, i int) *ir.Value {
	a := posArg(n, i)
	if a == nil || a.Kind != ir.ArgTensor || len(a.Values) != 1 || a.Values[0] == nil || a.Values[0].Meta == nil {
		return nil
	}
	return a.Values[0]
}

func out0(n *ir.Node) *ir.TensorMeta {
	if v := n.FirstOutput(); v != nil {
		return v.Meta
	}
	return nil
}

func sameShape(a, b []ir.Dim) bool {
	return slices.EqualFunc(a, b, func(x, y ir.Dim) bool { return x == y })
}

// copyIsNoop: copy.default only when it copies a tensor of the result's dtype and shape.
func copyIsNoop(n *ir.Node) bool {
	src, dst := posTensor(n, 1), out0(n)
	return src != nil && dst != nil && src.Meta.DType == dst.DType && sameShape(src.Meta.Sizes, dst.Sizes)
}

// pickToCopy: a float16/float32 conversion takes any storage, any other a contiguous buffer.
func pickToCopy(n *ir.Node) ([]repSet, []repSet) {
	in, out := posTensor(n, 0), out0(n)
	fp := func(d ir.DType) bool { return d == ir.Float16 || d == ir.Float32 }
	if in != nil && out != nil && fp(in.Meta.DType) && fp(out.DType) {
		return one(anyStorage), one(anyStorage)
	}
	return one(contiguousBuffer), one(contiguousBuffer)
}

// reducedDims is get_dims_reduced: the reduced dims normalised, one dim as an int (list nil).
func reducedDims(n *ir.Node) (dim int64, list []int64, isList bool) {
	x := posTensor(n, 0)
	ndim := int64(0)
	if x != nil {
		ndim = int64(len(x.Meta.Sizes))
	}
	norm := func(d int64) int64 {
		if d < 0 {
			return d + ndim
		}
		return d
	}
	a := posArg(n, 1)
	var dims []int64
	switch {
	case a == nil || a.Kind == ir.ArgNone:
		for i := range ndim {
			dims = append(dims, i)
		}
		if o := out0(n); o != nil && ndim == 2 && unsqueezedVector(o) {
			return 1, nil, false
		}
	case a.Kind == ir.ArgInt:
		return norm(a.Int), nil, false
	default:
		dims = a.Ints
	}
	if len(dims) == 1 {
		return norm(dims[0]), nil, false
	}
	out := make([]int64, len(dims))
	for i, d := range dims {
		out[i] = norm(d)
	}
	return 0, out, true
}

// unsqueezedVector: every dim but the last is 1.
func unsqueezedVector(m *ir.TensorMeta) bool {
	if len(m.Sizes) < 1 {
		return false
	}
	for _, d := range m.Sizes[:len(m.Sizes)-1] {
		if d.Size != 1 {
			return false
		}
	}
	return true
}

// keepdim is get_keepdim_setting: the first bool among the positional arguments.
func keepdim(n *ir.Node) bool {
	for i := range n.Args {
		if !n.Args[i].KwargOnly && n.Args[i].Kind == ir.ArgBool {
			return n.Args[i].Bool
		}
	}
	return false
}

func reducePerRow(n *ir.Node) bool {
	x := posTensor(n, 0)
	d, _, isList := reducedDims(n)
	return x != nil && !isList && d == int64(len(x.Meta.Sizes))-1
}

func reduceGeneral(n *ir.Node) bool {
	_, list, isList := reducedDims(n)
	if isList && len(list) > 2 {
		return false
	}
	return keepdim(n)
}

func reduceSupported(n *ir.Node) bool { return reducePerRow(n) || reduceGeneral(n) }

// pickReduce is pick_storage_for_reduce: textures for the general implementation, a
// contiguous buffer too for a last-dim reduction, and for a 2-dim reduction the one packed dim
// that is not reduced.
func pickReduce(n *ir.Node) ([]repSet, []repSet) {
	r := noStorage
	if reduceGeneral(n) {
		r = r.or(anyTexture)
	}
	if reducePerRow(n) {
		r = r.or(contiguousBuffer)
		return one(r), one(r)
	}
	if _, list, isList := reducedDims(n); isList && len(list) == 2 {
		ndim := int64(len(posTensor(n, 0).Meta.Sizes))
		packed := int64(-1)
		for d := range int64(3) { // the lowest packed dim left (CPython pops small ints in order)
			if d != ndim-1-list[0] && d != ndim-1-list[1] {
				packed = d
				break
			}
		}
		switch packed {
		case 0:
			r = widthPackedTexture
		case 1:
			r = heightPackedTexture
		default:
			r = channelsPackedTexture
		}
	}
	return one(r), one(r)
}

// convSupported: a 2D convolution of batch 1, a 1D one not transposed.
func convSupported(n *ir.Node) bool {
	x := posTensor(n, 0)
	if x == nil {
		return false
	}
	switch len(x.Meta.Sizes) {
	case 4:
		return x.Meta.Sizes[0].Size == 1
	case 3:
		if a := posArg(n, 6); a != nil && a.Kind == ir.ArgBool && a.Bool {
			return false
		}
	}
	return true
}

// pickConv: channels-packed textures, height-packed for a pointwise or depthwise conv1d; every
// argument after the input is prepacked or not a tensor.
func pickConv(n *ir.Node) ([]repSet, []repSet) {
	in := channelsPackedTexture
	x, w := posTensor(n, 0), posTensor(n, 1)
	if x != nil && w != nil && len(x.Meta.Sizes) == 3 && len(w.Meta.Sizes) >= 3 {
		cin, cout, k := x.Meta.Sizes[1].Size, w.Meta.Sizes[0].Size, w.Meta.Sizes[2].Size
		g := posArg(n, 8)
		depthwise := g != nil && g.Kind == ir.ArgInt && g.Int == cin && cout == cin && w.Meta.Sizes[1].Size == 1
		if k == 1 || depthwise {
			in = heightPackedTexture
		}
	}
	return append(one(in), noStorages(10)...), one(in)
}

// indexTensor returns index.Tensor's self and its one index (1-D checked by the caller).
func indexTensor(n *ir.Node) (self, index *ir.TensorMeta, ok bool) {
	s := posTensor(n, 0)
	a := posArg(n, 1)
	if s == nil || a == nil || (a.Kind != ir.ArgOptionalTensors && a.Kind != ir.ArgTensors) {
		return nil, nil, false
	}
	dim := -1
	for i, v := range a.Values {
		if v != nil {
			if dim >= 0 {
				return nil, nil, false
			}
			dim = i
		}
	}
	if dim < 0 || dim >= len(s.Meta.Sizes) || a.Values[dim].Meta == nil {
		return nil, nil, false
	}
	return s.Meta, a.Values[dim].Meta, true
}

func indexTensorSupported(n *ir.Node) bool {
	_, idx, ok := indexTensor(n)
	return ok && len(idx.Sizes) == 1
}

func pickIndexTensor(n *ir.Node) ([]repSet, []repSet) {
	if self, _, ok := indexTensor(n); ok && len(self.Sizes) > 1 {
		return one(contiguousBuffer), one(contiguousBuffer)
	}
	return one(anyStorage), one(anyStorage)
}

// gridSamplerSupported: bilinear, border padding, align_corners (RIFE's configuration).
func gridSamplerSupported(n *ir.Node) bool {
	mode, pad, align := posArg(n, 2), posArg(n, 3), posArg(n, 4)
	if mode == nil || pad == nil || align == nil || mode.Kind != ir.ArgInt || pad.Kind != ir.ArgInt {
		return false
	}
	return mode.Int == 0 && pad.Int == 1 && ((align.Kind == ir.ArgBool && align.Bool) || (align.Kind == ir.ArgInt && align.Int != 0))
}

// defaultBufferLimit is utils.DEFAULT_BUFFER_LIMIT, in elements.
const defaultBufferLimit = 128 << 20

// embeddingWeightFits: the weight table has at most defaultBufferLimit elements.
func embeddingWeightFits(n *ir.Node) bool {
	w := posTensor(n, 0)
	if w == nil {
		return true
	}
	numel := int64(1)
	for _, d := range w.Meta.Sizes {
		numel *= d.Size
	}
	return numel <= defaultBufferLimit
}
