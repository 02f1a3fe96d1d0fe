package xnnpack

import (
	"slices"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
)

// The layout family: static transpose, reshape, slice and constant pad, concatenation and
// bilinear resizing, in fp32; quantized, every one but pad and resize moves codes (quantMove).

func init() {
	// The moves are written once for fp32 values and qint8 codes.
	registerNode(schema.XNodeUnionXNNStaticTranspose, nodeKernel{run: transpose[float32], quant: quantMove(transpose[int8]), operator: "Transpose (ND, X32)"})
	registerNode(schema.XNodeUnionXNNStaticReshape, nodeKernel{run: reshape[float32], quant: quantMove(reshape[int8]), operator: "Static Reshape (NC)"})
	registerNode(schema.XNodeUnionXNNStaticSlice, nodeKernel{run: slice[float32], quant: quantMove(slice[int8]), operator: "Slice (ND, X32)"})
	for _, op := range []schema.XNodeUnion{schema.XNodeUnionXNNConcatenate2, schema.XNodeUnionXNNConcatenate3,
		schema.XNodeUnionXNNConcatenate4, schema.XNodeUnionXNNConcatenate5} {
		registerNode(op, nodeKernel{run: concat[float32], quant: quantMove(concat[int8]), operator: "Copy (NC, X32)"}) // XNNPACK concatenates by copies
	}
	registerNode(schema.XNodeUnionXNNStaticConstantPad, nodeKernel{run: constantPad, quant: quantPad, operator: "Constant Pad (ND, X32)"})
	registerNode(schema.XNodeUnionXNNStaticResizeBilinear2D, nodeKernel{run: resizeBilinear, operator: "Resize Bilinear (NHWC, F32)"})
}

// transpose permutes dimensions: out.dims[i] = in.dims[perm[i]].
func transpose[T elem](p *plan, n *xnngraph.Node) error {
	x, xd, err := inOf[T](p, n.Inputs[0])
	if err != nil {
		return err
	}
	r := len(x.dims)
	if len(n.Perm) != r {
		return errorf("perm %v for a rank-%d input", n.Perm, r)
	}
	seen := make([]bool, r)
	dims := make([]int, r)
	for i, d := range n.Perm {
		if int(d) >= r || seen[d] {
			return errorf("perm %v is not a permutation of 0..%d", n.Perm, r-1)
		}
		seen[d] = true
		dims[i] = x.dims[d]
	}
	_, yd := outOf[T](p, n.Outputs[0], dims)
	inStride := rowMajorStrides(x.dims)
	s := make([]int, r)
	for i, d := range n.Perm {
		s[i] = inStride[d]
	}
	if r >= 2 && s[r-1] != 1 {
		// The innermost output dimension strides through the input (NCHW -> NHWC moves channels
		// innermost): tile so reads and writes both stay within cached lines.
		transposeTiled(p, yd, xd, s, dims)
		return nil
	}
	gather(yd, xd, 0, s, dims)
	return nil
}

// transposeTiled is gather for a permutation whose last output dimension is not contiguous in
// the input: it finds the output dimension that is (stride 1) and walks 2-d tiles of it against
// the last output dimension, reading runs of the input and writing runs of the output, the other
// dimensions' index combinations split across threads.
func transposeTiled[T elem](p *plan, dst, src []T, strides, dims []int) {
	r := len(dims)
	inner := -1 // output dimension contiguous in the input
	for d := 0; d < r-1; d++ {
		if strides[d] == 1 && dims[d] > 1 {
			inner = d
		}
	}
	if inner < 0 {
		gather(dst, src, 0, strides, dims)
		return
	}
	ostr := rowMajorStrides(dims)
	var outer []int // every output dimension except the tile's two axes
	nouter := 1
	for d := 0; d < r-1; d++ {
		if d != inner {
			outer = append(outer, d)
			nouter *= dims[d]
		}
	}
	const tile = 64
	ni, nl := dims[inner], dims[r-1]
	sl, oi := strides[r-1], ostr[inner]
	p.parallel(nouter, 1, 4*len(dst), func(o0, o1 int) {
		for o := o0; o < o1; o++ {
			ib, ob, rest := 0, 0, o
			for k := len(outer) - 1; k >= 0; k-- {
				d := outer[k]
				x := rest % dims[d]
				rest /= dims[d]
				ib += x * strides[d]
				ob += x * ostr[d]
			}
			if nl == 3 && oi == 3 {
				// An RGB image's planes into pixels (NCHW -> NHWC): whole output pixels from
				// three input runs, about 4x the tiled loop.
				interleave3(dst[ob:ob+3*ni], src[ib:ib+ni], src[ib+sl:ib+sl+ni], src[ib+2*sl:ib+2*sl+ni])
				continue
			}
			for i0 := 0; i0 < ni; i0 += tile {
				i1 := min(i0+tile, ni)
				for l := 0; l < nl; l++ {
					run := src[ib+l*sl+i0 : ib+l*sl+i1] // stride 1 along inner
					out := dst[ob+i0*oi+l:]
					for k, v := range run {
						out[k*oi] = v
					}
				}
			}
		}
	})
}

// interleave3 writes dst[3i+c] = plane c's [i] for three planes of len(p0) values.
func interleave3[T elem](dst, p0, p1, p2 []T) {
	n := len(p0)
	p1, p2, dst = p1[:n], p2[:n], dst[:3*n]
	for i := 0; i < n; i++ {
		o := dst[3*i : 3*i+3 : 3*i+3]
		o[0], o[1], o[2] = p0[i], p1[i], p2[i]
	}
}

// gather fills dst (row-major over dims) with src[base + Σ idx[d]·strides[d]]: a transpose,
// slice or broadcast read.
func gather[T elem](dst, src []T, base int, strides, dims []int) {
	idx := make([]int, len(dims))
	off := base
	for i := range dst {
		dst[i] = src[off]
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			off += strides[d]
			if idx[d] < dims[d] {
				break
			}
			off -= idx[d] * strides[d]
			idx[d] = 0
		}
	}
}

// reshape copies into new dims; one 0 entry is inferred from the element count.
func reshape[T elem](p *plan, n *xnngraph.Node) error {
	x, xd, err := inOf[T](p, n.Inputs[0])
	if err != nil {
		return err
	}
	dims := make([]int, len(n.NewShape))
	known, infer := 1, -1
	for i, d := range n.NewShape {
		dims[i] = int(d)
		if d == 0 {
			if infer >= 0 {
				return errorf("new shape %v has more than one dimension to infer", n.NewShape)
			}
			infer = i
			continue
		}
		known *= int(d)
	}
	if infer >= 0 && known > 0 {
		dims[infer] = x.numel() / known
	}
	total := 1
	for _, d := range dims {
		total *= d
	}
	if total != x.numel() {
		return errorf("cannot reshape %v (%d elements) to %v", x.dims, x.numel(), n.NewShape)
	}
	_, yd := outOf[T](p, n.Outputs[0], dims)
	copy(yd, xd[:total])
	return nil
}

// slice copies the box [offsets, offsets+sizes); a size of 0 runs to the end.
func slice[T elem](p *plan, n *xnngraph.Node) error {
	x, xd, err := inOf[T](p, n.Inputs[0])
	if err != nil {
		return err
	}
	r := len(x.dims)
	if len(n.Offsets) != r || len(n.Sizes) != r {
		return errorf("slice of %d offsets and %d sizes for rank %d", len(n.Offsets), len(n.Sizes), r)
	}
	dims := make([]int, r)
	for i := range dims {
		o, s := int(n.Offsets[i]), int(n.Sizes[i])
		if s == 0 {
			s = x.dims[i] - o
		}
		if o < 0 || s < 0 || o+s > x.dims[i] {
			return errorf("slice offset %d size %d out of dimension %d of %v", o, s, i, x.dims)
		}
		dims[i] = s
	}
	_, yd := outOf[T](p, n.Outputs[0], dims)
	stride := rowMajorStrides(x.dims)
	base := 0
	for i := range dims {
		base += int(n.Offsets[i]) * stride[i]
	}
	gather(yd, xd, base, stride, dims)
	return nil
}

// constantPad pads each dimension with pre and post paddings of a constant.
func constantPad(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	r := len(x.dims)
	if len(n.PrePadding) != r || len(n.PostPadding) != r {
		return errorf("padding of %d/%d entries for rank %d", len(n.PrePadding), len(n.PostPadding), r)
	}
	dims := make([]int, r)
	for i := range dims {
		dims[i] = x.dims[i] + int(n.PrePadding[i]) + int(n.PostPadding[i])
	}
	y := p.out(n.Outputs[0], dims)
	for i := range y.data {
		y.data[i] = n.PadValue
	}
	ystride := rowMajorStrides(dims)
	idx := make([]int, r)
	for i := 0; i < x.numel(); i++ {
		off := 0
		for d, v := range idx {
			off += (v + int(n.PrePadding[d])) * ystride[d]
		}
		y.data[off] = x.data[i]
		for d := r - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < x.dims[d] {
				break
			}
			idx[d] = 0
		}
	}
	return nil
}

// concat joins the inputs along the node's axis.
func concat[T elem](p *plan, n *xnngraph.Node) error {
	var ins []*tensor
	var data [][]T
	for _, id := range n.Inputs {
		t, d, err := inOf[T](p, id)
		if err != nil {
			return err
		}
		ins, data = append(ins, t), append(data, d)
	}
	r := len(ins[0].dims)
	ax := int(n.Axis)
	if ax >= r {
		return errorf("concatenation axis %d for rank %d", ax, r)
	}
	dims := slices.Clone(ins[0].dims)
	dims[ax] = 0
	for _, t := range ins {
		if len(t.dims) != r {
			return errorf("concatenating ranks %d and %d", r, len(t.dims))
		}
		for d := range t.dims {
			if d != ax && t.dims[d] != ins[0].dims[d] {
				return errorf("concatenating %v and %v along %d", ins[0].dims, t.dims, ax)
			}
		}
		dims[ax] += t.dims[ax]
	}
	_, yd := outOf[T](p, n.Outputs[0], dims)
	outer := 1
	for _, d := range dims[:ax] {
		outer *= d
	}
	inner := 1
	for _, d := range dims[ax+1:] {
		inner *= d
	}
	off := 0
	for o := 0; o < outer; o++ {
		for i, t := range ins {
			k := t.dims[ax] * inner
			copy(yd[off:off+k], data[i][o*k:o*k+k])
			off += k
		}
	}
	return nil
}

// resizeBilinear resizes NHWC H and W, with half-pixel centres or aligned corners.
func resizeBilinear(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	N, H, W, C, err := nhwc(x, "resize input")
	if err != nil {
		return err
	}
	OH, OW := int(n.NewHeight), int(n.NewWidth)
	y := p.out(n.Outputs[0], []int{N, OH, OW, C})
	align := n.Flags&xnngraph.FlagAlignCorners != 0
	src := func(o, in, out int) float64 {
		if align {
			if out <= 1 {
				return 0
			}
			return float64(o) * float64(in-1) / float64(out-1)
		}
		s := (float64(o)+0.5)*float64(in)/float64(out) - 0.5
		return max(s, 0)
	}
	for b := 0; b < N; b++ {
		for oh := 0; oh < OH; oh++ {
			fy := src(oh, H, OH)
			y0 := min(int(fy), H-1)
			y1, wy := min(y0+1, H-1), fy-float64(y0)
			for ow := 0; ow < OW; ow++ {
				fx := src(ow, W, OW)
				x0 := min(int(fx), W-1)
				x1, wx := min(x0+1, W-1), fx-float64(x0)
				out := y.data[((b*OH+oh)*OW+ow)*C:][:C]
				p00 := x.data[((b*H+y0)*W+x0)*C:]
				p01 := x.data[((b*H+y0)*W+x1)*C:]
				p10 := x.data[((b*H+y1)*W+x0)*C:]
				p11 := x.data[((b*H+y1)*W+x1)*C:]
				for c := range out {
					top := float64(p00[c]) + (float64(p01[c])-float64(p00[c]))*wx
					bot := float64(p10[c]) + (float64(p11[c])-float64(p10[c]))*wx
					out[c] = float32(top + (bot-top)*wy)
				}
			}
		}
	}
	return nil
}

// rowMajorStrides returns the element strides of a contiguous tensor of these dims.
func rowMajorStrides(dims []int) []int {
	s := make([]int, len(dims))
	step := 1
	for i := len(dims) - 1; i >= 0; i-- {
		s[i] = step
		step *= dims[i]
	}
	return s
}
