package xnnpack

import (
	"slices"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
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
	perm := make([]int, r)
	for i, d := range n.Perm {
		if int(d) >= r || seen[d] {
			return errorf("perm %v is not a permutation of 0..%d", n.Perm, r-1)
		}
		seen[d] = true
		dims[i], perm[i] = x.dims[d], int(d)
	}
	_, yd := outOf[T](p, n.Outputs[0], dims)
	permute(p, yd, xd[:len(yd)], x.dims, perm)
	return nil
}

// normalizePerm reduces a permutation of a tensor of dims in to its simplest equivalent, as
// XNNPACK normalises a transpose before choosing a kernel: size-1 dimensions dropped, and input
// dimensions that stay adjacent and in order in the output merged into one. A channel shuffle's
// 5-d permutation becomes a 3-d one whose inner dimension stays put, NCHW <-> NHWC a 2-d
// transpose.
func normalizePerm(in, perm []int) (dims, np []int) {
	idx := make([]int, len(in)) // input dim -> its index once size-1 dims are dropped
	var kept []int
	for d, s := range in {
		idx[d] = -1
		if s != 1 {
			idx[d] = len(kept)
			kept = append(kept, s)
		}
	}
	var q []int // the permutation of the kept dims
	for _, d := range perm {
		if idx[d] >= 0 {
			q = append(q, idx[d])
		}
	}
	// Runs of q counting up by one are one merged dim; its new index is its rank by first
	// input dim.
	var first, size []int // per run, in output order
	for i, d := range q {
		if i > 0 && d == q[i-1]+1 {
			size[len(size)-1] *= kept[d]
			continue
		}
		first, size = append(first, d), append(size, kept[d])
	}
	order := make([]int, len(first)) // runs by first input dim
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return first[a] - first[b] })
	dims, np = make([]int, len(first)), make([]int, len(first))
	for rank, run := range order {
		dims[rank] = size[run]
		np[run] = rank
	}
	return dims, np
}

// permute writes dst (row-major) as src (row-major over in) with its dims permuted by perm.
// After normalisation: an identity is one copy; a permutation that keeps the innermost
// dimension copies whole rows of it; any other has a 2-d transpose at its core (the input's
// innermost dimension against the output's) for each combination of the other indices, run on
// gemm's blocked transpose kernels. The row copies or transposes are split across threads.
func permute[T elem](p *plan, dst, src []T, in, perm []int) {
	if len(dst) == 0 {
		return
	}
	dims, np := normalizePerm(in, perm)
	r := len(dims)
	if r <= 1 {
		copy(dst, src)
		return
	}
	istr := rowMajorStrides(dims)
	odims := make([]int, r)
	s := make([]int, r) // input stride of each output dim
	for i, d := range np {
		odims[i], s[i] = dims[d], istr[d]
	}
	ostr := rowMajorStrides(odims)
	if np[r-1] == r-1 {
		// Whole rows of the innermost dimension: gather rows over the outer output dims.
		run := dims[r-1]
		rows := len(dst) / run
		p.parallel(rows, 1, 4*len(dst), func(r0, r1 int) {
			idx := make([]int, r-1)
			off, rest := 0, r0
			for d := r - 2; d >= 0; d-- {
				idx[d] = rest % odims[d]
				rest /= odims[d]
				off += idx[d] * s[d]
			}
			for row := r0; row < r1; row++ {
				copy(dst[row*run:(row+1)*run], src[off:off+run])
				for d := r - 2; d >= 0; d-- {
					idx[d]++
					off += s[d]
					if idx[d] < odims[d] {
						break
					}
					off -= idx[d] * s[d]
					idx[d] = 0
				}
			}
		})
		return
	}
	// The 2-d core: output dim j is the input's innermost (stride 1), the output's innermost
	// dim strides through the input by lds.
	j := slices.Index(np, r-1)
	rows, cols := odims[r-1], odims[j] // of the source matrix: rows at stride lds, cols contiguous
	lds, ldd := s[r-1], ostr[j]
	var outer []int // every other output dim
	nouter := 1
	for d := 0; d < r-1; d++ {
		if d != j {
			outer = append(outer, d)
			nouter *= odims[d]
		}
	}
	tr := transposeOf[T]()
	// Units are (outer index, block of 8·rowChunk source rows): a single large matrix (NCHW <->
	// NHWC) still splits across threads.
	chunk := rows
	if nouter < 4*p.threads && rows >= 64 {
		chunk = max(8, (rows/(4*p.threads)+7)&^7)
	}
	nchunks := (rows + chunk - 1) / chunk
	// Few source rows (an RGB image's three planes into NHWC pixels) split along the columns
	// instead, in runs of whole cache lines, so the threads still share the work.
	cchunk := cols
	if nouter*nchunks < 4*p.threads && cols >= 256 {
		cchunk = max(64, (cols/(4*p.threads)+15)&^15)
	}
	ncchunks := (cols + cchunk - 1) / cchunk
	p.parallel(nouter*nchunks*ncchunks, 1, 4*len(dst), func(u0, u1 int) {
		for u := u0; u < u1; u++ {
			cc := u % ncchunks
			u := u / ncchunks
			o, c := u/nchunks, u%nchunks
			ib, ob, rest := 0, 0, o
			for k := len(outer) - 1; k >= 0; k-- {
				d := outer[k]
				x := rest % odims[d]
				rest /= odims[d]
				ib += x * s[d]
				ob += x * ostr[d]
			}
			r0, r1 := c*chunk, min((c+1)*chunk, rows)
			c0, c1 := cc*cchunk, min((cc+1)*cchunk, cols)
			ib += r0*lds + c0
			ob += r0 + c0*ldd
			nr, nc := r1-r0, c1-c0
			if nr == 3 && ldd == 3 && r0 == 0 {
				// An RGB image's planes into pixels (NCHW -> NHWC): whole output pixels from
				// three input runs.
				interleave3(dst[ob:ob+3*nc], src[ib:ib+nc], src[ib+lds:ib+lds+nc], src[ib+2*lds:ib+2*lds+nc])
				continue
			}
			tr(dst[ob:ob+(nc-1)*ldd+nr], ldd, src[ib:ib+(nr-1)*lds+nc], lds, nr, nc)
		}
	})
}

// transposeOf is gemm.Transpose for T, or gemm.TransposeGo for the element types it has no
// kernel for.
func transposeOf[T elem]() func([]T, int, []T, int, int, int) bool {
	if f, ok := any(gemm.Transpose).(func([]T, int, []T, int, int, int) bool); ok {
		return f
	}
	return gemm.TransposeGo[T]
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
	if i, j := p.index[n.Inputs[0]], p.index[n.Outputs[0]]; i != j && i < len(p.freedAt) && p.freedAt[i] == p.step && !p.g.Values[j].IsOutput() {
		// Nothing reads the input after this node, and its buffer is the plan's own: hand it
		// to the output instead of copying (the output's old buffer is freed with the input;
		// never an external output's, which may be the caller's memory).
		xs, ys := storage[T](x), storage[T](p.val(n.Outputs[0]))
		*xs, *ys = *ys, *xs
		outOf[T](p, n.Outputs[0], dims)
		return nil
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
	copyBox(yd, 0, rowMajorStrides(dims), xd, base, stride, dims)
	return nil
}

// copyBox copies a box of dims from src (offset sb, strides ss) to dst (offset db, strides ds):
// dimensions of 1 dropped and dimensions contiguous in both merged, so that a slice or a pad
// moves whole runs of its innermost dimension at a time where both sides have them.
func copyBox[T elem](dst []T, db int, ds []int, src []T, sb int, ss []int, dims []int) {
	var nd, nds, nss []int
	for d, n := range dims {
		if n == 0 {
			return
		}
		if n == 1 {
			continue
		}
		if k := len(nd) - 1; k >= 0 && nss[k] == ss[d]*n && nds[k] == ds[d]*n {
			nd[k] *= n
			nss[k], nds[k] = ss[d], ds[d]
			continue
		}
		nd, nds, nss = append(nd, n), append(nds, ds[d]), append(nss, ss[d])
	}
	r := len(nd)
	if r == 0 {
		dst[db] = src[sb]
		return
	}
	run, runStride := 1, r
	if nss[r-1] == 1 && nds[r-1] == 1 {
		run, runStride = nd[r-1], r-1
	}
	idx := make([]int, runStride)
	so, do := sb, db
	for {
		if run > 1 {
			copy(dst[do:do+run], src[so:so+run])
		} else {
			dst[do] = src[so]
		}
		d := runStride - 1
		for ; d >= 0; d-- {
			idx[d]++
			so += nss[d]
			do += nds[d]
			if idx[d] < nd[d] {
				break
			}
			so -= idx[d] * nss[d]
			do -= idx[d] * nds[d]
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
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
	ystride := rowMajorStrides(dims)
	off := 0
	for d := range dims {
		off += int(n.PrePadding[d]) * ystride[d]
	}
	if x.numel() != y.numel() {
		fill(y.data, n.PadValue)
	}
	copyBox(y.data, off, ystride, x.data, 0, rowMajorStrides(x.dims), x.dims)
	return nil
}

// fill sets every element of d to v.
func fill(d []float32, v float32) {
	if v == 0 {
		clear(d)
		return
	}
	if len(d) == 0 {
		return
	}
	d[0] = v
	for k := 1; k < len(d); k *= 2 {
		copy(d[k:], d[:k])
	}
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
