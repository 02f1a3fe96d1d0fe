package xnnpack

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// Statically quantized graphs (the PT2E 8-bit flow: XNNPACKQuantizer with per-tensor int8
// activations and per-tensor or per-channel int8 weights).
//
// Storage: a qint8 value holds its codes as int8 (tensor.q), a graph input's read in place from
// the call's int8 tensor; the plan's memory reuse pools them apart from fp32 buffers. The kernels
// that only move elements (transpose, reshape, slice, concatenation) are written once for both
// element types (elem); max pooling and copy have code versions of their own. Quantized
// constants (int8 filters, int32 biases) are kept widened to int32 in tensor.ints, as the
// integer kernels multiply and accumulate them.
//
// Arithmetic follows XNNPACK's fp32 requantization (what its qs8 kernels compute on every ISA):
//   - quantize (Convert fp32 -> qint8): v = x * (1/scale), clamped to [-128-zp, 127-zp], rounded
//     to nearest even, plus zp;
//   - dequantize (Convert qint8 -> fp32): (q - zp) * scale;
//   - convolution and fully connected: int32 acc = bias + Σ (x - x_zp)·w, then
//     float32(acc) · (x_scale·w_scale[c] / y_scale), clamped, rounded to nearest even, plus y_zp;
//   - add: XNNPACK's fixed-point form (20-bit multipliers, a rounding shift; see qaddParams);
//   - the output range: a node's fp32 output_min/max quantized as XNNPACK's xnn_qs8_quantize.

// qinfo is a quantized value's resolved parameters.
type qinfo struct {
	dtype  schema.XNNDatatype
	scale  float32   // per tensor
	zp     int32     // per tensor (0 for per-channel values)
	scales []float32 // per channel, indexed along channelDim
	chDim  int
	// rowDims (qdint8) is how many trailing dims form one row, quantized with its own
	// parameters when the graph runs (tensor.rows).
	rowDims int
	// block and blockScales (qbint4): each output channel's input channels, in blocks of block,
	// have one scale each, blockScales[c·(ic/block)+b], bf16 values widened exactly.
	block       int
	blockScales []float32
}

// perChannel reports whether the value has one scale per channel.
func (q *qinfo) perChannel() bool { return q.scales != nil }

// scaleAt is the scale of channel c (the tensor's scale when per tensor).
func (q *qinfo) scaleAt(c int) float32 {
	if q.scales != nil {
		return q.scales[c]
	}
	return q.scale
}

// resolveQuant checks a quantized value's datatype against its parameters and resolves
// per-channel scales stored in constant data. Only what the static 8-bit flow produces is
// accepted: qint8 per tensor (activations, weights), qcint8 per channel (weights), qint32 and
// qcint32 (biases, zero point 0).
func resolveQuant(g *xnngraph.Graph, v *xnngraph.Value, named func(string) ([]byte, error)) (*qinfo, error) {
	q := v.Quant
	qi := &qinfo{dtype: v.DType, scale: q.Scale, zp: q.ZeroPoint}
	switch {
	case v.DType == schema.XNNDatatypexnn_datatype_qint8 && q.Kind == schema.XNNQuantParamsPerTensorQuant:
		if q.ZeroPoint < -128 || q.ZeroPoint > 127 {
			return nil, errorf("value %d (qint8): zero point %d is outside [-128, 127]", v.ID, q.ZeroPoint)
		}
	case v.DType == schema.XNNDatatypexnn_datatype_qint32 && q.Kind == schema.XNNQuantParamsPerTensorQuant:
		if q.ZeroPoint != 0 {
			return nil, errorf("value %d (qint32): zero point %d, XNNPACK requires 0", v.ID, q.ZeroPoint)
		}
	case (v.DType == schema.XNNDatatypexnn_datatype_qcint8 || v.DType == schema.XNNDatatypexnn_datatype_qcint32 ||
		v.DType == schema.XNNDatatypexnn_datatype_qcint4) && q.Kind == schema.XNNQuantParamsPerChannelQuant:
		// (qcint4: zero point 8, as XNNCompiler defines it; its codes are kept centered,
		// unpackQC4W.)
		qi.zp, qi.chDim = 0, int(q.ChannelDim)
		qi.scales = q.Scales
		if q.ScaleBufferIdx != 0 {
			raw, err := g.ConstantBytes(v.ID, q.ScaleBufferIdx, named)
			if err != nil {
				return nil, err
			}
			channels := v.Dims[q.ChannelDim] // (validate checked the dim exists)
			if uint64(len(raw)) != 4*uint64(channels) {
				return nil, errorf("value %d: scale buffer %d has %d bytes for %d fp32 scales (one per channel of dim %d of %v)", v.ID, q.ScaleBufferIdx, len(raw), channels, q.ChannelDim, v.Dims)
			}
			qi.scales = make([]float32, channels)
			for c := range qi.scales {
				s := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*c:]))
				if !(s > 0) || math.IsInf(float64(s), 1) {
					return nil, errorf("value %d: scale %g of channel %d is not a positive finite number", v.ID, s, c)
				}
				qi.scales[c] = s
			}
		}
	case v.DType == schema.XNNDatatypexnn_datatype_qdint8 && q.Kind == schema.XNNQuantParamsPerTokenDynamicQuant:
		return resolveDynamic(v)
	case v.DType == schema.XNNDatatypexnn_datatype_qbint4 && q.Kind == schema.XNNQuantParamsPerChannelGroupQuant:
		return resolveBlockwise(g, v, named)
	default:
		return nil, fmt.Errorf("%w: value %d is %s with %s parameters; quantized values run as qint8/qint32 per tensor, qcint8/qcint4/qcint32 per channel, qdint8 per token (dynamic) or qbint4 per channel group",
			ErrUnsupported, v.ID, v.DType, q.Kind)
	}
	return qi, nil
}

// quantConstant loads a quantized constant (int8 or int32 elements) widened to int32.
func quantConstant(g *xnngraph.Graph, v *xnngraph.Value, named func(string) ([]byte, error)) ([]int32, error) {
	raw, err := g.ConstantBytes(v.ID, v.ConstantIdx, named)
	if err != nil {
		return nil, err
	}
	n := uint64(1)
	for _, d := range v.Dims {
		n *= uint64(d)
	}
	if v.DType == schema.XNNDatatypexnn_datatype_qbint4 {
		return unpackInt4(v, raw)
	}
	if v.DType == schema.XNNDatatypexnn_datatype_qcint4 {
		return unpackQC4W(v, raw) // node_fc_qc4w.go
	}
	size := uint64(1)
	if v.DType == schema.XNNDatatypexnn_datatype_qint32 || v.DType == schema.XNNDatatypexnn_datatype_qcint32 {
		size = 4
	}
	if uint64(len(raw)) != size*n {
		return nil, errorf("value %d: constant has %d bytes, its dims %v of %s are %d", v.ID, len(raw), v.Dims, v.DType, size*n)
	}
	out := make([]int32, n)
	for i := range out {
		if size == 4 {
			out[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
		} else {
			out[i] = int32(int8(raw[i]))
		}
	}
	return out, nil
}

// roundEven rounds to the nearest integer, ties to even (lrintf in the default rounding mode,
// and the SIMD conversions XNNPACK uses).
func roundEven(x float32) float32 { return float32(math.RoundToEven(float64(x))) }

// roundEvenSmall is roundEven for |x| <= 2^22, the clamped values of the hot loops: adding and
// subtracting 1.5·2^23 leaves x rounded to an integer, to nearest even, by fp32 addition itself
// (XNNPACK's "magic bias" kernels round the same way).
func roundEvenSmall(x float32) float32 {
	const magic = 12582912 // 1.5·2^23
	return (x + magic) - magic
}

// quantize is XNNPACK's fp32 -> qint8 conversion: x times the reciprocal scale (computed once,
// in fp32, as XNNPACK does), clamped, rounded to nearest even, plus the zero point. NaN becomes
// the zero point.
func quantize(x, invScale float32, zp int32) int32 {
	v := x * invScale
	lo, hi := float32(-128-zp), float32(127-zp)
	switch {
	case v != v:
		v = 0
	case v < lo:
		v = lo
	case v > hi:
		v = hi
	}
	return int32(roundEvenSmall(v)) + zp
}

// dequantize is XNNPACK's qint8 -> fp32 conversion.
func dequantize(q, zp int32, scale float32) float32 { return float32(q-zp) * scale }

// requantize maps an int32 accumulator to the output's codes: fp32 product with the combined
// scale, clamped to [qmin, qmax] (less the zero point), rounded to nearest even, plus zp.
func requantize(acc int32, scale float32, zp, qmin, qmax int32) int32 {
	v := float32(acc) * scale
	lo, hi := float32(qmin-zp), float32(qmax-zp)
	if v < lo {
		v = lo
	} else if v > hi {
		v = hi
	}
	return int32(roundEvenSmall(v)) + zp
}

// quantizeBound is XNNPACK's xnn_qs8_quantize, which turns a node's fp32 output_min/max into
// codes: round(clamp(val/scale + zp, -128, 127)). ±Inf give the int8 range.
func quantizeBound(val, scale float32, zp int32) int32 {
	v := val/scale + float32(zp)
	v = min(max(v, -128), 127)
	return int32(roundEven(v))
}

// outputRange is a quantized node's output range in codes.
func outputRange(n *xnngraph.Node, out *qinfo) (lo, hi int32) {
	return quantizeBound(n.OutputMin, out.scale, out.zp), quantizeBound(n.OutputMax, out.scale, out.zp)
}

// qaddParams is XNNPACK's fixed-point qint8 addition: each input's scale ratio to the output
// becomes a multiplier of about 20 bits with a common shift; out = (bias + a·am + b·bm) >> shift,
// plus the output zero point, clamped. bias folds the input zero points and the rounding term
// (half of 1 << shift, so ties round up).
type qaddParams struct {
	am, bm, bias int32
	shift        uint32
	zp, lo, hi   int32
}

// newQAdd builds a qint8 a + b, or a - b with subtract: XNNPACK subtracts by adding with b's
// scale negated, which negates b's multiplier.
func newQAdd(a, b, y *qinfo, lo, hi int32, subtract bool) (*qaddParams, error) {
	as, bs := a.scale/y.scale, b.scale/y.scale
	m := max(as, bs)
	// XNNPACK accepts ratios in [2^-10, 2^8) (so the shift stays in [12, 30]) and refuses others.
	if as < 0x1p-10 || bs < 0x1p-10 || m >= 0x1p8 {
		return nil, fmt.Errorf("%w: qint8 add with input/output scale ratios %g and %g (XNNPACK supports [2^-10, 2^8))", ErrUnsupported, as, bs)
	}
	exp := int32(math.Float32bits(m)>>23) - 127
	shift := uint32(20 - exp)
	mult := func(s float32) int32 {
		// s · 2^shift, exactly (an exponent adjustment), then rounded to an integer.
		return int32(roundEven(math.Float32frombits(math.Float32bits(s) + shift<<23)))
	}
	q := &qaddParams{am: mult(as), bm: mult(bs), shift: shift, zp: y.zp, lo: lo, hi: hi}
	if subtract {
		q.bm = -q.bm
	}
	q.bias = int32(1)<<(shift-1) - q.am*a.zp - q.bm*b.zp
	return q, nil
}

// run is the addition of equal-shaped inputs on gemm's int8 kernels; the general form, with
// broadcasting, is binaryOp of add.
func (q *qaddParams) run(slow runFunc) runFunc {
	g := &gemm.QAdd{AM: q.am, BM: q.bm, Bias: q.bias, Shift: q.shift, ZP: q.zp, Lo: q.lo, Hi: q.hi}
	return func(p *plan, n *xnngraph.Node) error {
		a, ad, err := inOf[int8](p, n.Inputs[0])
		if err != nil {
			return err
		}
		b, bd, err := inOf[int8](p, n.Inputs[1])
		if err != nil {
			return err
		}
		if !equalDims(a.dims, b.dims) {
			return slow(p, n)
		}
		_, y := outOf[int8](p, n.Outputs[0], a.dims)
		p.elementwise(len(y), func(lo, hi int) { g.Run(y[lo:hi], ad[lo:hi], bd[lo:hi]) })
		return nil
	}
}

// quantMulRun is the qint8 product on gemm's int8 kernels for equal shapes and for one operand
// repeated along the other's leading dimensions (a squeeze-and-excitation scale); slow, the
// general broadcast, for the rest.
func quantMulRun(q *gemm.QMul, slow runFunc) runFunc {
	swapped := *q
	swapped.AZP, swapped.BZP = q.BZP, q.AZP
	return func(p *plan, n *xnngraph.Node) error {
		a, ad, err := inOf[int8](p, n.Inputs[0])
		if err != nil {
			return err
		}
		b, bd, err := inOf[int8](p, n.Inputs[1])
		if err != nil {
			return err
		}
		var dimsBuf [8]int
		dims, err := xnngraph.BroadcastDimsTo(dimsBuf[:], a.dims, b.dims)
		if err != nil {
			return err
		}
		k := q
		if !equalDims(a.dims, dims) && equalDims(b.dims, dims) {
			a, ad, b, bd, k = b, bd, a, ad, &swapped
		}
		if !equalDims(a.dims, dims) {
			return slow(p, n)
		}
		if equalDims(b.dims, dims) {
			_, y := outOf[int8](p, n.Outputs[0], dims)
			p.elementwise(len(y), func(lo, hi int) { k.Run(y[lo:hi], ad[lo:hi], bd[lo:hi]) })
			return nil
		}
		inner := xnngraph.TrailingBroadcast(b.dims, dims)
		if inner < 8 {
			return slow(p, n)
		}
		_, y := outOf[int8](p, n.Outputs[0], dims)
		bv := bd[:inner]
		rows := len(y) / inner
		p.parallel(rows, max(1, elementwiseGrain/inner), len(y), func(r0, r1 int) {
			for r := r0; r < r1; r++ {
				k.Run(y[r*inner:(r+1)*inner], ad[r*inner:], bv)
			}
		})
		return nil
	}
}

func (q *qaddParams) add(a, b int32) int32 {
	v := (q.bias+a*q.am+b*q.bm)>>q.shift + q.zp
	return min(max(v, q.lo), q.hi)
}

// touchesQuant reports whether any operand of n is a quantized value.
func (p *plan) touchesQuant(n *xnngraph.Node) bool {
	for _, group := range [][]uint32{n.Inputs, n.Outputs} {
		for _, id := range group {
			if id != xnngraph.InvalidID && p.quant[p.index[id]] != nil {
				return true
			}
		}
	}
	return false
}

// qof is the quantization of value id (nil for fp32 or an absent operand).
func (p *plan) qof(id uint32) *qinfo {
	if id == xnngraph.InvalidID {
		return nil
	}
	return p.quant[p.index[id]]
}

func isQint8(q *qinfo) bool { return q != nil && q.dtype == schema.XNNDatatypexnn_datatype_qint8 }

// quantStep checks the datatypes of a node that reads or writes quantized values and returns
// its kernel, prepared by its type's quantized form (nodeKernel.quant) with every parameter
// (combined scales, output range in codes) computed now. Combinations the static 8-bit flow does
// not produce are refused by name.
func (p *plan) quantStep(k int, n *xnngraph.Node) (runFunc, error) {
	if len(n.Outputs) != 1 || len(n.Inputs) == 0 || n.Inputs[0] == xnngraph.InvalidID {
		return nil, p.unsupportedQuant(k, n)
	}
	if x := p.qof(n.Inputs[0]); x != nil && x.dtype == schema.XNNDatatypexnn_datatype_qdint8 && n.Op != schema.XNodeUnionXNNFullyConnected {
		if n.Op == schema.XNodeUnionXNNConv2d || n.Op == schema.XNodeUnionXNNConvTranspose2d {
			return p.dynamicConv(k, n) // node_conv_dynamic.go
		}
		return nil, fmt.Errorf("%w: node %d (%s) reads a dynamically quantized (qdint8) value; only fully connected layers and convolutions run on qdint8", ErrUnsupported, k, n.OpName())
	}
	kern := kernelOf(n.Op)
	if kern == nil || kern.quant == nil {
		return nil, p.unsupportedQuant(k, n)
	}
	return kern.quant(p, k, n)
}

// unsupportedQuant refuses node k's combination of datatypes, naming them.
func (p *plan) unsupportedQuant(k int, n *xnngraph.Node) error {
	var kinds []string
	for _, id := range append(append([]uint32(nil), n.Inputs...), n.Outputs...) {
		if id == xnngraph.InvalidID {
			continue
		}
		kinds = append(kinds, p.g.Values[p.index[id]].DType.String())
	}
	return fmt.Errorf("%w: node %d (%s) on %v: this quantized combination is not supported", ErrUnsupported, k, n.OpName(), kinds)
}

// quantMove is the quantized form of the node types that move or select codes (layout
// operations, copy, clamp, max pooling): XNNPACK requires every input's quantization to equal
// the output's, so the codes carry over unchanged, moved by the type's own kernel, and then the
// output range, in codes (all a clamp does).
func quantMove(move runFunc) func(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
	return func(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
		y := p.qof(n.Outputs[0])
		same := isQint8(y)
		for _, id := range n.Inputs {
			in := p.qof(id)
			same = same && isQint8(in) && in.scale == y.scale && in.zp == y.zp
		}
		if !same {
			return nil, p.unsupportedQuant(k, n)
		}
		lo, hi := outputRange(n, y)
		return func(p *plan, n *xnngraph.Node) error {
			if err := move(p, n); err != nil {
				return err
			}
			if lo > -128 || hi < 127 {
				gemm.ClampQ8(p.val(n.Outputs[0]).q, int8(lo), int8(hi))
			}
			return nil
		}, nil
	}
}

// quantLinear resolves the operands of a quantized (transposed, depthwise) convolution or fully
// connected layer k: qint8 input and output, a constant qint8 (per tensor) or qcint8 (per output
// channel) filter whose output channels are dimension ocDim, an optional constant
// qint32/qcint32 bias. Its family's quantized form picks the kernel.
func (p *plan) quantLinear(k int, n *xnngraph.Node, ocDim int) (*qlinear, error) {
	unsupported := func() error { return p.unsupportedQuant(k, n) }
	x, y := p.qof(n.Inputs[0]), p.qof(n.Outputs[0])
	if len(n.Inputs) < 3 || n.Inputs[1] == xnngraph.InvalidID || !isQint8(x) || !isQint8(y) {
		return nil, unsupported()
	}
	wi := p.index[n.Inputs[1]]
	w := p.quant[wi]
	if w == nil || !p.isConst[wi] {
		return nil, unsupported()
	}
	wv := &p.g.Values[wi]
	if ocDim >= len(wv.Dims) {
		return nil, fmt.Errorf("%w: %s filter %v has no output-channel dimension %d", xnngraph.ErrInvalidBlob, n.OpName(), wv.Dims, ocDim)
	}
	oc := int(wv.Dims[ocDim])
	switch {
	case w.dtype == schema.XNNDatatypexnn_datatype_qint8 && !w.perChannel():
		if w.zp != 0 {
			return nil, fmt.Errorf("%w: %s filter (value %d) has zero point %d; XNNPACK's qint8 filters are symmetric", ErrUnsupported, n.OpName(), wv.ID, w.zp)
		}
	case (w.dtype == schema.XNNDatatypexnn_datatype_qcint8 || isQC4WFilter(n, w, ocDim)) && w.perChannel():
		if w.chDim != ocDim {
			return nil, fmt.Errorf("%w: %s filter (value %d) is quantized along dim %d, its output channels are dim %d", ErrUnsupported, n.OpName(), wv.ID, w.chDim, ocDim)
		}
	default:
		return nil, unsupported()
	}
	var bias []int32
	if bid := n.Inputs[2]; bid != xnngraph.InvalidID {
		bi := p.index[bid]
		b := p.quant[bi]
		if b == nil || !p.isConst[bi] || (b.dtype != schema.XNNDatatypexnn_datatype_qint32 && b.dtype != schema.XNNDatatypexnn_datatype_qcint32) {
			return nil, unsupported()
		}
		if len(p.vals[bi].ints) != oc {
			return nil, fmt.Errorf("%w: %s bias (value %d) has %d values for %d output channels", xnngraph.ErrInvalidBlob, n.OpName(), bid, len(p.vals[bi].ints), oc)
		}
		bias = p.vals[bi].ints
	} else {
		bias = make([]int32, oc)
	}
	// XNNPACK's requantization scale per output channel, in fp32 and in this order.
	scale := make([]float32, oc)
	for c := range scale {
		scale[c] = x.scale * w.scaleAt(c) / y.scale
		if !(scale[c] < 256) {
			// As XNNPACK, which refuses to create such a layer.
			return nil, fmt.Errorf("%w: %s requantization scale %g of output channel %d (input %g x filter %g / output %g) is not below 256",
				ErrUnsupported, n.OpName(), scale[c], c, x.scale, w.scaleAt(c), y.scale)
		}
	}
	lo, hi := outputRange(n, y)
	q := &qlinear{bias: bias, w: p.vals[wi].ints, wdims: p.vals[wi].dims, scale: scale, xzp: x.zp, yzp: y.zp, lo: lo, hi: hi, oc: oc}
	if p.qlinears == nil {
		p.qlinears = map[*xnngraph.Node]*qlinear{}
	}
	p.qlinears[n] = q
	return q, nil
}

// fuseQuantClamps folds a quantized clamp into the (depthwise, transposed) convolution or
// fully connected layer whose output only it reads, as XNNPACK's subgraph fusion does: the
// layer's output range in codes becomes the intersection of both (clamping codes twice is
// clamping once to the intersection), the layer writes the clamp's output, and the clamp runs
// nothing. (A quantized clamp's input and output share their quantization.)
func (p *plan) fuseQuantClamps() {
	p.fuseQuantLUTs()
	if len(p.qlinears) == 0 {
		return
	}
	readers := map[uint32]int{}
	producer := map[uint32]*xnngraph.Node{}
	for _, s := range p.steps {
		for _, id := range s.node.Inputs {
			readers[id]++
		}
		for _, id := range s.node.Outputs {
			producer[id] = s.node
		}
	}
	for k, s := range p.steps {
		n := s.node
		if n.Op != schema.XNodeUnionXNNClamp || len(n.Inputs) != 1 || len(n.Outputs) != 1 || !isQint8(p.qof(n.Outputs[0])) {
			continue
		}
		x := n.Inputs[0]
		prod := producer[x]
		q := p.qlinears[prod]
		if q == nil || readers[x] != 1 || len(prod.Outputs) != 1 || p.g.Values[p.index[x]].IsOutput() {
			continue
		}
		lo, hi := outputRange(n, p.qof(n.Outputs[0]))
		if !q.narrow(lo, hi) {
			continue
		}
		y := n.Outputs[0]
		prod.Outputs = []uint32{y}
		// The clamp keeps a well-formed shape (y to y) for whoever reads the plan's graph, and
		// runs nothing.
		n.Inputs = []uint32{y}
		p.steps[k].run = func(*plan, *xnngraph.Node) error { return nil }
	}
}

// narrow intersects the layer's output range with [lo, hi] (codes), in its packed kernels too;
// false (and nothing changed) where the intersection is empty.
func (q *qlinear) narrow(lo, hi int32) bool {
	lo, hi = max(q.lo, lo), min(q.hi, hi)
	if lo > hi {
		return false
	}
	q.lo, q.hi = lo, hi
	for g, qs := range q.qs {
		q.qs[g] = qs.WithRange(lo, hi)
	}
	if q.qs4 != nil {
		q.qs4 = q.qs4.WithRange(lo, hi)
	}
	if q.dw != nil {
		q.dw = q.dw.WithRange(lo, hi)
	}
	return true
}

// isProduct reports whether the factors multiply to total, without overflow: the factors come
// from an untrusted blob, and a wrapped product must not pass a size check.
func isProduct(total int, factors ...int) bool {
	for _, f := range factors {
		if f < 0 {
			return false
		}
		if f == 0 {
			return total == 0
		}
	}
	n := 1
	for _, f := range factors {
		if n > total/f {
			return false // n·f > total, or would overflow
		}
		n *= f
	}
	return n == total
}

// qlinear is a quantized layer's resolved operands.
type qlinear struct {
	bias, w  []int32
	wdims    []int // w's dims
	scale    []float32
	xzp, yzp int32
	lo, hi   int32
	oc       int
	xi       []int32 // scratch: the centered input (a plan runs one Execute at a time)
	// wt is the filter as qlinear.gemm multiplies by it, arranged at init: per group, a
	// [kh·kw·gin, gout] matrix (convFilter) for a convolution, [in, out] for a fully connected
	// layer.
	wt []int32
	// geom and y are a convolution's geometry and output codes for the call running, kept in
	// the layer's record (the parallel tasks capture them).
	geom convGeom
	y    []int8
	// qs is the filter packed for the int8 GEMM, one per convolution group (packQS8); dw a
	// depthwise layer's kernel (packQDW) and dwOffs its tap offsets for the input shape dwKey.
	qs     []*gemm.QS8
	dw     *gemm.QDW
	dwOffs []int32
	dwKey  dwKey
	// ind is an ungrouped convolution's indirection table for the input shape indKey, zrow
	// its padding pixel (the input zero point).
	ind    *gemm.QIndirect
	indKey dwKey
	zrow   []int8
	// qs4 is a 3-channel layer's filter over 4 channels (packQS8).
	qs4 *gemm.QS8
}

// centered returns the input's codes less the input zero point, as int32, in a buffer the layer
// reuses across calls: converting once per element keeps float-to-int conversions out of the
// multiply-add loops, which read each input element many times.
func (q *qlinear) centered(x []int8) []int32 {
	if cap(q.xi) < len(x) {
		q.xi = make([]int32, len(x))
	}
	xi := q.xi[:len(x)]
	for i, v := range x {
		xi[i] = int32(v) - q.xzp
	}
	return xi
}

// store is output channel c's code for accumulator acc.
func (q *qlinear) store(acc int32, c int) int8 {
	return int8(requantize(acc, q.scale[c], q.yzp, q.lo, q.hi))
}
