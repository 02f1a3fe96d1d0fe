package xnnpack

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// Dynamically quantized linear layers (XNNPACKQuantizer's dynamic config, torchao's 8da4w):
// the partitioner writes a Convert from an fp32 activation to a qdint8 value, which XNNPACK
// quantizes row by row when the graph runs, and a FullyConnected that multiplies those codes by
// constant int8 per-channel (qcint8) or 4-bit blockwise (qbint4) weights and writes fp32.
//
// Storage: a qdint8 value holds its codes as int8 (tensor.q, pooled with qint8 codes) and one
// rowQuant per row (tensor.rows), written by the Convert that makes it. A qbint4 filter's
// nibbles are kept widened to int32 less their zero point 8 (tensor.ints), its bf16 block
// scales widened to fp32 in qinfo.blockScales.
//
// Arithmetic, as XNNPACK's x86 kernels compute it (the official runtime's on the AVX-512 VNNI
// machine that made testdata/dynquant, where it runs the QDU8 variants: unsigned codes and the
// zero point both shifted by 128, the same integers once centered; the qc8w GEMM is its amd64
// assembly kernel, the qb4w GEMM its avx512vnnigfni C kernel):
//   - each row's parameters: xnn_qd8_asymmetric_quantization_params on the row's min and max
//     (widened to include 0), all in fp32 (qd8Params); the codes are the static quantize with
//     the multiplier 255/(max-min) and the row's zero point, but NaN gives 127 (quantizeQD8);
//     NaN and infinities follow XNNPACK's x86 kernels through the min and max, the parameters
//     and the output clamp (rowMinMax, mathMin, qdlinear.clamp);
//   - qd8 × qc8w: acc = Σ (q - zp)·w in int32 (exact, so in any order), then
//     fma(float(acc)·input_scale, filter_scale[c], bias[c]), clamped;
//   - qd8 × qb4w: v = -zp·Σ_b s_b·Σ_{i∈b} w_i (XNNPACK's packed "ksum", in fp32), then per
//     block v = fma(float(Σ_{i∈b} q_i·w_i), s_b, v), then v·input_scale + bias, clamped.
// The integer parts are exact. The fp32 parts follow XNNPACK's order (fma rounded once, as
// VFMADD: gemm.FMA32, and the assembly kernels' own VFMADD), with one exception that can
// differ in the last bit: XNNPACK sums the qb4w ksum in chunks of its microkernel's kr·2 elements,
// block by block, where etgo adds one term per block (exact within a block, since the terms are
// small integers times one bf16 scale; the order across blocks can round differently).

// rowQuant is one row's dynamic quantization: real = scale·(q - zp).
type rowQuant struct {
	scale float32 // XNNPACK's inv_scale: the reciprocal of the quantizing multiplier
	zp    int32
}

// resolveDynamic checks a qdint8 value: computed when the graph runs, never constant data (the
// official runtime refuses that too), rows of its trailing rowDims dims.
func resolveDynamic(v *xnngraph.Value) (*qinfo, error) {
	if v.ConstantIdx != 0 {
		return nil, errorf("value %d (qdint8) is dynamically quantized but has constant data", v.ID)
	}
	// (xnngraph's verifier checked 0 <= NumNonbatchDims <= rank.)
	return &qinfo{dtype: v.DType, rowDims: int(v.Quant.NumNonbatchDims)}, nil
}

// resolveBlockwise checks a qbint4 filter, [output channels, input channels] as the official
// runtime reads it, and loads its block scales: bf16 in constant data, or else the inline fp32
// scales rounded to bf16 as the official runtime rounds them (bf16FromF32).
func resolveBlockwise(g *xnngraph.Graph, v *xnngraph.Value, named func(string) ([]byte, error)) (*qinfo, error) {
	q := v.Quant
	// (xnngraph's verifier checked: 2-d, a group size dividing the input channels, the scale
	// count, the scale buffer index.)
	oc, ic, bs := int(v.Dims[0]), int(v.Dims[1]), int(q.GroupSize)
	n := oc * (ic / bs)
	qi := &qinfo{dtype: v.DType, zp: 8, chDim: int(q.ChannelDim), block: bs, blockScales: make([]float32, n)}
	if q.ScaleBufferIdx != 0 {
		raw, err := g.ConstantBytes(v.ID, q.ScaleBufferIdx, named)
		if err != nil {
			return nil, err
		}
		if len(raw) != 2*n {
			return nil, errorf("value %d (qbint4): scale buffer %d has %d bytes for %d bf16 scales (%d channels of %d blocks)", v.ID, q.ScaleBufferIdx, len(raw), n, oc, ic/bs)
		}
		for i := range qi.blockScales {
			qi.blockScales[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(raw[2*i:])) << 16)
		}
	} else {
		for i, s := range q.Scales[:n] {
			qi.blockScales[i] = math.Float32frombits(uint32(bf16FromF32(s)) << 16)
		}
	}
	for i, s := range qi.blockScales {
		if !(s > 0) || math.IsInf(float64(s), 1) {
			return nil, errorf("value %d (qbint4): scale %g of block %d is not a positive finite number", v.ID, s, i)
		}
	}
	return qi, nil
}

// bf16FromF32 is the official runtime's fp32 -> bf16 conversion of inline block scales
// (XNNCompiler's convertF32TensorToBF16): scaled up by 1.00389105 so that truncation rounds,
// then truncated.
func bf16FromF32(s float32) uint16 {
	return uint16(math.Float32bits(s*1.00389105) >> 16)
}

// unpackInt4 widens a qbint4 constant: two codes a byte, the even element in the low nibble,
// each less the zero point 8 (the layout ExecuTorch's convert_to_qc4w writes, rows padded to
// whole bytes, which for the even row lengths XNNPACK's blocks have is the plain element order
// XNNPACK's packing reads).
func unpackInt4(v *xnngraph.Value, raw []byte) ([]int32, error) {
	if len(v.Dims) != 2 || v.Dims[1]%2 != 0 {
		return nil, fmt.Errorf("%w: value %d (%s) has dims %v; 4-bit filters run as [out, in] with an even number of input channels", ErrUnsupported, v.ID, v.DType, v.Dims)
	}
	n := uint64(v.Dims[0]) * uint64(v.Dims[1])
	if uint64(len(raw)) != n/2 {
		return nil, errorf("value %d: constant has %d bytes, its dims %v of %s are %d", v.ID, len(raw), v.Dims, v.DType, n/2)
	}
	out := make([]int32, n)
	for i, b := range raw {
		out[2*i] = int32(b&0xF) - 8
		out[2*i+1] = int32(b>>4) - 8
	}
	return out, nil
}

// qd8Params is XNNPACK's xnn_qd8_asymmetric_quantization_params for a row whose elements lie in
// [lo, hi]: the multiplier that maps the range (widened to include 0) onto the 255 codes, and
// the zero point nudged to an integer, all in fp32 and in XNNPACK's order. Its min and max are
// XNNPACK's x86 math_min_f32 / math_max_f32, which give their second operand when a comparison
// with NaN fails: a row with an infinite element gets the multiplier 0, and its zero point is
// -128 (+Inf) or 127 (-Inf) by way of NaN intermediates, as in the official runtime.
func qd8Params(lo, hi float32) (mult float32, zp int32) {
	const qmin, qmax = float32(-128), float32(127)
	rmin, rmax := mathMin(0, lo), mathMax(0, hi)
	mult = 1
	if rmin != rmax {
		mult = (qmax - qmin) / (rmax - rmin)
	}
	dmin, dmax := rmin*mult, rmax*mult
	z := qmax - dmax
	if (qmin+dmin)+(qmax+dmax) > 0 {
		z = qmin - dmin
	}
	z = mathMax(z, qmin)
	z = mathMin(z, qmax)
	return mult, int32(roundEven(z)) // lrintf (z is in [-128, 127] here)
}

// mathMin and mathMax are XNNPACK's math_min_f32 / math_max_f32 as compiled for x86:
// (b < a) ? b : a and (b < a) ? a : b.
func mathMin(a, b float32) float32 {
	if b < a {
		return b
	}
	return a
}

func mathMax(a, b float32) float32 {
	if b < a {
		return a
	}
	return b
}

// rowMinMax is XNNPACK's f32 rminmax on x86 with AVX-512, lane for lane (gemm.RowMinMax: with
// a NaN in the row the answer depends on where it lies).
func rowMinMax(x []float32) (lo, hi float32) { return gemm.RowMinMax(x) }

// x86Min and x86Max are MINPS and MAXPS: the second operand when either is NaN.
func x86Min(a, b float32) float32 {
	if a < b {
		return a
	}
	return b
}

func x86Max(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}

// quantizeDynamic is the Convert fp32 -> qdint8: per row (its trailing rowDims dims), the
// row's min and max (rowMinMax), its parameters (qd8Params), its codes (quantizeQD8).
func quantizeDynamic(rowDims int) runFunc {
	return func(p *plan, n *xnngraph.Node) error {
		in, err := p.in(n.Inputs[0])
		if err != nil {
			return err
		}
		if rowDims > len(in.dims) {
			return errorf("qdint8 rows of %d dims in an input of shape %v", rowDims, in.dims)
		}
		y, codes := outOf[int8](p, n.Outputs[0], in.dims)
		width := 1
		for _, d := range in.dims[len(in.dims)-rowDims:] {
			width *= d
		}
		rows := 0
		if width > 0 {
			rows = len(codes) / width
		}
		if cap(y.rows) < rows {
			y.rows = make([]rowQuant, rows)
		}
		y.rows = y.rows[:rows]
		for r := range rows {
			x := in.data[r*width : (r+1)*width]
			mult, zp := qd8Params(rowMinMax(x))
			y.rows[r] = rowQuant{scale: 1 / mult, zp: zp}
			gemm.QuantizeQD8(codes[r*width:(r+1)*width], x, mult, zp) // (quantizeQD8, vectorized)
		}
		return nil
	}
}

// qdlinear is a dynamically quantized fully connected layer's resolved operands.
type qdlinear struct {
	oc, ic int
	// wt is the filter as [in, out] (widened codes, the zero point removed for qbint4).
	wt []int32
	// qc8w: one scale per output channel; qb4w: blockScales of block input channels, per
	// output channel ([oc][ic/block]), and ksum[c] = Σ_b s_b·Σ_{i∈b} w[c,i] in fp32.
	scales      []float32
	block       int
	blockScales []float32
	ksum        []float32
	biasID      uint32
	lo, hi      float32
	// cKernel: the GEMM is one of XNNPACK's C intrinsics kernels (qc4w, like qb4w), which
	// clamp value first.
	cKernel bool
	// qc8 and qb4 are the filter packed for internal/gemm's kernels (pack); nil where it does
	// not fit them (a block size that is not a multiple of 8), and the loops below run.
	qc8     *gemm.QPacked
	qb4     *gemm.QB4Packed
	ksumPad []float32
	zeros   []float32 // the bias of a qc8w layer without one
}

// dynamicLinear prepares FullyConnected node k on a qdint8 input: a constant qcint8 filter
// quantized along its output channels (dim ocDim), or a constant qbint4 [out, in] filter, an
// optional fp32 bias, an fp32 output.
func (p *plan) dynamicLinear(k int, n *xnngraph.Node, ocDim int) (runFunc, error) {
	unsupported := func() error { return p.unsupportedQuant(k, n) }
	y := p.qof(n.Outputs[0]) // (the caller checked the input is qdint8)
	if y != nil || p.g.Values[p.index[n.Outputs[0]]].DType != schema.XNNDatatypexnn_datatype_fp32 ||
		len(n.Inputs) < 3 || n.Inputs[1] == xnngraph.InvalidID {
		return nil, unsupported()
	}
	wi := p.index[n.Inputs[1]]
	w := p.quant[wi]
	if w == nil || !p.isConst[wi] {
		return nil, unsupported()
	}
	wv := &p.g.Values[wi]
	if len(wv.Dims) != 2 {
		return nil, fmt.Errorf("%w: %s filter %v is not 2-d", xnngraph.ErrInvalidBlob, n.OpName(), wv.Dims)
	}
	oc, ic := int(wv.Dims[ocDim]), int(wv.Dims[1-ocDim])
	ints := p.vals[wi].ints
	if len(ints) != oc*ic {
		return nil, errorf("%s filter of %d values for dims %v", n.OpName(), len(ints), wv.Dims)
	}
	q := &qdlinear{oc: oc, ic: ic, biasID: n.Inputs[2], lo: n.OutputMin, hi: n.OutputMax}
	switch {
	case (w.dtype == schema.XNNDatatypexnn_datatype_qcint8 || isQC4WFilter(n, w, ocDim)) && w.perChannel():
		if w.chDim != ocDim {
			return nil, fmt.Errorf("%w: %s filter (value %d) is quantized along dim %d, its output channels are dim %d", ErrUnsupported, n.OpName(), wv.ID, w.chDim, ocDim)
		}
		q.scales = w.scales
		q.cKernel = w.dtype == schema.XNNDatatypexnn_datatype_qcint4
	case w.dtype == schema.XNNDatatypexnn_datatype_qbint4:
		if ocDim != 0 || w.chDim != 0 {
			return nil, fmt.Errorf("%w: %s qbint4 filter (value %d) with channel dim %d and transposed weights %v; blockwise filters run as [out, in] quantized along dim 0", ErrUnsupported, n.OpName(), wv.ID, w.chDim, ocDim != 0)
		}
		q.block, q.blockScales = w.block, w.blockScales
		nb := ic / w.block
		q.ksum = make([]float32, oc)
		for c := range oc {
			var s float32
			for b := range nb {
				var sum int32
				for _, v := range ints[c*ic+b*w.block:][:w.block] {
					sum += v
				}
				s += float32(sum) * w.blockScales[c*nb+b]
			}
			q.ksum[c] = s
		}
	default:
		return nil, unsupported()
	}
	if b := n.Inputs[2]; b != xnngraph.InvalidID && p.qof(b) != nil {
		return nil, unsupported() // the dynamic flows keep the bias fp32
	}
	q.wt = ints
	if ocDim == 0 {
		q.wt = transposeInts(ints, oc, ic)
	}
	q.pack()
	if q.qc8 != nil || q.qb4 != nil {
		// The packed copy is all run reads (the loops below need wt only when packing
		// refused the shapes): drop the widened codes.
		q.wt = nil
		if p.packedFilters == nil {
			p.packedFilters = map[int]int{}
		}
		p.packedFilters[wi]++
	}
	return q.run, nil
}

// run computes the layer for the call.
func (q *qdlinear) run(p *plan, n *xnngraph.Node) error {
	x, codes, err := inOf[int8](p, n.Inputs[0])
	if err != nil {
		return err
	}
	oc, ic := q.oc, q.ic
	if len(x.dims) == 0 || x.dims[len(x.dims)-1] != ic {
		return errorf("input %v does not end in the filter's %d input channels", x.dims, ic)
	}
	rows := x.numel() / max(ic, 1)
	if len(x.rows) != rows {
		return errorf("qdint8 input %v has parameters for %d rows", x.dims, len(x.rows))
	}
	var bias []float32
	if q.biasID != xnngraph.InvalidID {
		b, err := p.in(q.biasID)
		if err != nil {
			return err
		}
		if b.numel() != oc {
			return errorf("bias of %d values for %d output channels", b.numel(), oc)
		}
		bias = b.data[:oc]
	}
	dims := append(append([]int(nil), x.dims[:len(x.dims)-1]...), oc)
	y := p.out(n.Outputs[0], dims)
	if q.qc8 != nil || q.qb4 != nil {
		return q.runPacked(p, codes[:rows*ic], x.rows, rows, bias, y.data[:rows*oc])
	}
	p.parallel(rows, 1, rows*oc*ic, func(r0, r1 int) {
		acc := make([]int32, oc)
		for r := r0; r < r1; r++ {
			rq := x.rows[r]
			a := codes[r*ic : (r+1)*ic]
			out := y.data[r*oc : (r+1)*oc]
			if q.block == 0 {
				q.rowQC8W(a, rq, acc, bias, out)
			} else {
				q.rowQB4W(a, rq, acc, bias, out)
			}
		}
	})
	return nil
}

// rowQC8W is one row of qd8 × qc8w.
func (q *qdlinear) rowQC8W(a []int8, rq rowQuant, acc []int32, bias, out []float32) {
	clear(acc)
	axpy4(acc, a, rq.zp, q.wt, q.oc)
	for o, s := range acc {
		var b float32
		if bias != nil {
			b = bias[o]
		}
		out[o] = q.clamp(fma32(float32(s)*rq.scale, q.scales[o], b))
	}
}

// rowQB4W is one row of qd8 × qb4w.
func (q *qdlinear) rowQB4W(a []int8, rq rowQuant, acc []int32, bias, out []float32) {
	nb := q.ic / q.block
	for o := range out {
		out[o] = q.ksum[o] * -float32(rq.zp)
	}
	for b := range nb {
		clear(acc)
		// The codes themselves (zero point 0): ksum carries the zero point.
		axpy4(acc, a[b*q.block:(b+1)*q.block], 0, q.wt[b*q.block*q.oc:], q.oc)
		for o, s := range acc {
			out[o] = fma32(float32(s), q.blockScales[o*nb+b], out[o])
		}
	}
	for o := range out {
		v := out[o] * rq.scale
		if bias != nil {
			v += bias[o]
		}
		out[o] = q.clamp(v)
	}
}

// clamp is the output range as the official runtime's qd8 GEMMs apply it on x86. The qc8w
// GEMMs are XNNPACK's assembly AVX-512 VNNI kernels, which take the bound first, MAXPS(min, v)
// then MINPS(max, v), so a NaN stays NaN; the qb4w GEMMs are its C intrinsics kernels, which
// take the value first, so a NaN becomes the lower bound (testdata/dynquant's nonfinite inputs:
// a row with -Inf gives NaN with qcint8 filters, -Inf with qbint4 ones).
func (q *qdlinear) clamp(v float32) float32 {
	if q.block != 0 || q.cKernel {
		return x86Min(x86Max(v, q.lo), q.hi)
	}
	return x86Min(q.hi, x86Max(q.lo, v))
}

// fma32 is a·b + c rounded once to fp32 as VFMADD does (gemm.FMA32).
func fma32(a, b, c float32) float32 { return gemm.FMA32(a, b, c) }

// dynamicOperator is the profiling name of a node of a dynamically quantized layer, as the
// official runtime's ETDump names it on x86 with VNNI, where XNNPACK runs qd8 layers on unsigned
// codes (QDU8; the codes and the zero point shifted by 128, the same integers after centering):
// "Fully Connected (NC, QDU8, F32, QC8W) GEMM" or "... QB4W) GEMM". XNNPACK folds the Convert
// into the layer's input packing and reports no event for it; etgo keeps one event per node,
// named for XNNPACK's stand-alone operator, "Convert (NC, F32, QDU8)".
func (p *plan) dynamicOperator(n *xnngraph.Node) (string, bool) {
	if len(n.Inputs) == 0 || len(n.Outputs) == 0 {
		return "", false
	}
	switch x, y := p.qof(n.Inputs[0]), p.qof(n.Outputs[0]); {
	case n.Op == schema.XNodeUnionXNNConvert && x == nil && y != nil && y.dtype == schema.XNNDatatypexnn_datatype_qdint8:
		return "Convert (NC, F32, QDU8)", true
	case n.Op == schema.XNodeUnionXNNFullyConnected && x != nil && x.dtype == schema.XNNDatatypexnn_datatype_qdint8 && len(n.Inputs) > 1:
		w := "QC8W"
		if f := p.qof(n.Inputs[1]); f != nil && f.dtype == schema.XNNDatatypexnn_datatype_qbint4 {
			w = "QB4W"
		} else if f != nil && f.dtype == schema.XNNDatatypexnn_datatype_qcint4 {
			w = "QC4W"
		}
		return "Fully Connected (NC, QDU8, F32, " + w + ") GEMM", true
	case n.Op == schema.XNodeUnionXNNConv2d && x != nil && x.dtype == schema.XNNDatatypexnn_datatype_qdint8:
		if definedAsFullyConnected(n) {
			return "Fully Connected (NC, QDU8, F32, QC8W) GEMM", true
		}
		return "Convolution (NHWC, QDU8, F32, QC8W) IGEMM", true
	case n.Op == schema.XNodeUnionXNNConvTranspose2d && x != nil && x.dtype == schema.XNNDatatypexnn_datatype_qdint8:
		return "Deconvolution (NHWC, QDU8, F32, QC8W)", true
	}
	return "", false
}

// axpy4 adds Σ_i (a[i] - zp)·w[i·n : i·n+n] to acc (n values), four input channels per pass over
// acc so each accumulator is loaded and stored a quarter as often (1.6x faster than one channel
// per pass on testdata/dynquant/linear_wide; the sums are exact int32 arithmetic, wrapping as
// XNNPACK's does, so the grouping changes no result).
func axpy4(acc []int32, a []int8, zp int32, w []int32, n int) {
	acc = acc[:n]
	i := 0
	for ; i+4 <= len(a); i += 4 {
		v0, v1, v2, v3 := int32(a[i])-zp, int32(a[i+1])-zp, int32(a[i+2])-zp, int32(a[i+3])-zp
		w0, w1, w2, w3 := w[i*n:][:n], w[(i+1)*n:][:n], w[(i+2)*n:][:n], w[(i+3)*n:][:n]
		for o := range acc {
			acc[o] += v0*w0[o] + v1*w1[o] + v2*w2[o] + v3*w3[o]
		}
	}
	for ; i < len(a); i++ {
		v := int32(a[i]) - zp
		for o, x := range w[i*n:][:n] {
			acc[o] += v * x
		}
	}
}

// readByFullyConnectedOnly reports whether every node that reads value id is a fully connected
// layer, or a convolution XNNPACK defines as one (and at least one does).
func (p *plan) readByFullyConnectedOnly(id uint32) bool {
	readers := 0
	for i := range p.g.Nodes {
		n := &p.g.Nodes[i]
		for _, in := range n.Inputs {
			if in == id {
				if n.Op != schema.XNodeUnionXNNFullyConnected && !definedAsFullyConnected(n) {
					return false
				}
				readers++
			}
		}
	}
	return readers > 0
}

// readByConvAsFullyConnected reports whether a convolution XNNPACK defines as a fully connected
// layer reads value id.
func (p *plan) readByConvAsFullyConnected(id uint32) bool {
	for i := range p.g.Nodes {
		n := &p.g.Nodes[i]
		if definedAsFullyConnected(n) && slices.Contains(n.Inputs, id) {
			return true
		}
	}
	return false
}
