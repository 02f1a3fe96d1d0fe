package aot

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition/configs"
)

// Quantized regions, as ExecuTorch's XNNPACK preprocess writes them (operators/quant_params.py,
// node_visitor.define_tensor, op_quant_dequant.py). A q/dq node a quantized operator claimed
// (its "implicit" q/dq, tagged by the partitioner's configs) writes no XNNPACK node: the values
// on either side are one quantized XNNPACK value, whose parameters come from the q/dq. A q/dq
// claimed alone is an XNNPACK Convert between fp32 and a quantized value.

// qparams are one value's quantization parameters (QuantParams).
type qparams struct {
	perChannel bool
	// qInput is the value the q/dq reads (the quantized weight, or the fp32 tensor a q
	// quantizes): it shares the XNNPACK value.
	qInput    *ir.Value
	scale     float64   // per tensor
	zeroPoint int64     // per tensor
	scales    []float32 // per channel
	axis      int
	dtype     ir.DType
	// dynamic: quantized per row when the graph runs (qdint8); the trailing nonbatch dims form
	// a row.
	dynamic     bool
	nonbatchDim int32
	// groupSize > 0: blockwise (per channel group) scales, groupSize input channels each, of a
	// 2-d weight; scales then holds [out channels][groups]. qc4w: 4-bit codes in int8
	// ([-8, 7]), packed two per byte.
	groupSize int
	qc4w      bool
}

// implicitQDQ tags the q/dq nodes the partitioner's configs take as dependencies of a quantized
// operator in g (tag_as_implicit_q_dq): what GEMMConfig.get_deps and the generic configs'
// get_node_and_deps return besides the node itself.
func implicitQDQ(g *ir.Graph) map[*ir.Node]bool {
	cb := (&Partitioner{}).configBased()
	facts := configs.NewFacts(g)
	tags := map[*ir.Node]bool{}
	for _, n := range g.Nodes {
		c := cb.Lookup(n.Target)
		if c == nil || c.QuantOp {
			continue
		}
		for _, d := range cb.Claim(facts, c, n).Nodes {
			if d != n && (configs.IsQuantize(d) || configs.IsDequantize(d)) {
				tags[d] = true
			}
		}
	}
	return tags
}

// qdqParams reads a per-tensor or per-channel q/dq node's parameters (from_q_dq_node).
func (p *preprocessor) qdqParams(n *ir.Node) (*qparams, error) {
	in := n.FirstTensorArg()
	if in == nil {
		return nil, fmt.Errorf("%s has no input", n.Name)
	}
	q := &qparams{qInput: in, dtype: ir.DType(n.IntArg("dtype", int64(ir.Int8)))}
	if configs.IsDynamicQDQ(n) {
		// _from_dynamic_input_node: 3 nonbatch dims when the row feeds a convolution (only
		// 2-D ones are dynamically quantized), else 1.
		q.dynamic, q.nonbatchDim, q.dtype = true, 1, ir.Float32
		if p.feedsConv(n) {
			q.nonbatchDim = 3
		}
		return q, nil
	}
	if configs.IsAffine(n) {
		return p.affineParams(n, q)
	}
	if configs.IsPerChannel(n) {
		s, _ := configs.QParamArgs(n)
		c := p.params.Data(s)
		if c == nil {
			return nil, fmt.Errorf("%s: per-channel scales %v are not a constant", n.Name, s)
		}
		f, err := floats64(c)
		if err != nil {
			return nil, fmt.Errorf("%s: scales: %w", n.Name, err)
		}
		q.perChannel = true
		q.scales = make([]float32, len(f))
		for i, x := range f {
			q.scales[i] = float32(x)
		}
		q.axis = int(n.IntArg("axis", 0))
		// is_qc4w: static per-channel codes in [-8, 7] held as int8 (XNNPACKQuantizer's
		// weight_qmin=-8, weight_qmax=7) are written as 4-bit codes, two a byte.
		q.qc4w = q.dtype == ir.Int8 && n.IntArg("quant_min", -128) == -8 && n.IntArg("quant_max", 127) == 7
		return q, nil
	}
	if !configs.IsPerTensor(n) || n.Arg("scale") == nil || n.Arg("scale").Kind == ir.ArgTensor {
		return nil, fmt.Errorf("%s: only static per-tensor and per-channel quantization is written so far", n.Name)
	}
	q.scale = n.ScalarArg("scale", 0)
	q.zeroPoint = n.IntArg("zero_point", 0)
	return q, nil
}

// quantOf is the parameters a value is serialized with (from_inputs, from_outputs): the
// implicit dq producing it, the implicit q that is its one reader, or, through a layout
// conversion the channels-last pass inserted, those of the value converted.
func (p *preprocessor) quantOf(v *ir.Value) (*qparams, error) {
	through := false // the parameters are a converted value's: v shares no XNNPACK value with it
	for range 8 {    // layout conversions chain at most a few deep
		q, err := p.ownQuant(v)
		if err != nil || q != nil {
			if q != nil && through {
				q.qInput = nil
			}
			return q, err
		}
		users := p.users[v]
		switch {
		case v.Producer != nil && isLayoutConversion(v.Producer) && p.inserted[v.Producer]:
			v = v.Producer.FirstTensorArg()
		case len(users) == 1 && isLayoutConversion(users[0]) && p.inserted[users[0]]:
			v = users[0].FirstOutput()
		default:
			return nil, nil
		}
		through = true
	}
	return nil, nil
}

// ownQuant is from_inputs then from_outputs.
func (p *preprocessor) ownQuant(v *ir.Value) (*qparams, error) {
	if pr := v.Producer; pr != nil && configs.IsDequantize(pr) && p.implicit[pr] {
		src := pr
		if in := pr.FirstTensorArg(); in != nil && configs.IsQuantize(in.Producer) && p.isParam(in.Producer.FirstTensorArg()) {
			src = in.Producer
		}
		return p.qdqParams(src)
	}
	users := p.users[v]
	if len(users) == 1 && !p.g.IsGraphOutput(v) && configs.IsQuantize(users[0]) && p.implicit[users[0]] {
		q, err := p.qdqParams(users[0])
		if q != nil {
			q.qInput = nil // from_outputs: the q reads v itself
		}
		return q, err
	}
	if len(users) == 1 && configs.IsDequantize(users[0]) && !p.implicit[users[0]] && v.Producer != nil && p.inserted[v.Producer] {
		// A layout conversion moved before an explicit dq (convertBeforeDequantize) writes
		// the quantized tensor the dq converts.
		q, err := p.qdqParams(users[0])
		if q != nil {
			q.qInput = nil
		}
		return q, err
	}
	return nil, nil
}

// convertBeforeDequantize moves a layout conversion the channels-last pass put after an
// explicit dq (the region's fp32 output of a channels-last quantized operator) before it, so
// the transpose runs on the quantized tensor and the Convert last, as ExecuTorch's
// ChannelsLastTaggedReshapePass arranges it (conv → q → (dq copy q) → dq → output, the inner
// q/dq implicit).
func (p *preprocessor) convertBeforeDequantize() {
	users := p.g.Users()
	for ci, c := range p.g.Nodes {
		if !p.inserted[c] || len(c.Outputs) != 1 {
			continue
		}
		b := c.FirstTensorArg()
		d := b.Producer
		if d == nil || !configs.IsDequantize(d) || p.implicit[d] || len(users[b]) != 1 || p.g.IsGraphOutput(b) {
			continue
		}
		di := slices.Index(p.g.Nodes, d)
		a, o := d.FirstTensorArg(), c.Outputs[0]
		if di < 0 || a == nil {
			continue
		}
		c.SetTensorArg(c.Args[0].Name, a)
		d.SetTensorArg(d.Args[0].Name, b)
		c.Outputs[0], d.Outputs[0] = b, o
		b.Producer, o.Producer = c, d
		b.Meta = o.Meta
		p.nhwc[b], p.nhwc[o] = p.nhwc[o], p.nhwc[o]
		p.g.Nodes[di], p.g.Nodes[ci] = c, d
	}
}

// quantDType is get_serialized_dtype for a quantized value.
func quantDType(q *qparams) schema.XNNDatatype {
	switch {
	case q.dynamic:
		return schema.XNNDatatypexnn_datatype_qdint8
	case q.groupSize > 0:
		return schema.XNNDatatypexnn_datatype_qbint4
	case q.qc4w:
		return schema.XNNDatatypexnn_datatype_qcint4
	case q.perChannel && q.dtype == ir.Int32:
		return schema.XNNDatatypexnn_datatype_qcint32
	case q.perChannel:
		return schema.XNNDatatypexnn_datatype_qcint8
	case q.dtype == ir.Int32:
		return schema.XNNDatatypexnn_datatype_qint32
	}
	return schema.XNNDatatypexnn_datatype_qint8
}

// quantValue fills a quantized value's parameters; a per-channel value's scales go to the named
// data under "scale_" + their SHA-256, as get_quant_params stores them.
func (p *preprocessor) quantValue(val *xnngraph.Value, q *qparams, swapIO bool) {
	val.DType = quantDType(q)
	val.Quantized = true
	if q.dynamic {
		val.Quant = &xnngraph.QuantParams{Kind: schema.XNNQuantParamsPerTokenDynamicQuant, NumNonbatchDims: q.nonbatchDim}
		return
	}
	if !q.perChannel {
		val.Quant = &xnngraph.QuantParams{Kind: schema.XNNQuantParamsPerTensorQuant, Scale: float32(q.scale), ZeroPoint: int32(q.zeroPoint)}
		return
	}
	if q.groupSize > 0 {
		// get_quant_params: blockwise scales as bf16 (round to nearest even), "scale_" + their
		// SHA-256.
		buf := make([]byte, 2*len(q.scales))
		for i, s := range q.scales {
			binary.LittleEndian.PutUint16(buf[2*i:], bf16(s))
		}
		idx := p.storeNamed("scale_", buf)
		val.Quant = &xnngraph.QuantParams{Kind: schema.XNNQuantParamsPerChannelGroupQuant, ChannelDim: uint32(q.axis),
			GroupSize: int32(q.groupSize), ScaleBufferIdx: idx, NumScales: uint32(len(q.scales))}
		return
	}
	axis := q.axis
	if swapIO {
		switch axis {
		case 0:
			axis = len(val.Dims) - 1
		case 1:
			axis = 0
		}
	}
	buf := make([]byte, 4*len(q.scales))
	for i, s := range q.scales {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(s))
	}
	idx := p.storeNamed("scale_", buf)
	val.Quant = &xnngraph.QuantParams{Kind: schema.XNNQuantParamsPerChannelQuant, ChannelDim: uint32(axis), ScaleBufferIdx: idx, NumScales: uint32(len(q.scales))}
}

// biasParams is from_bias: a quantized GEMM's fp32 bias becomes int32 with the scale of
// weight scale × input scale (per channel when the weight is), zero point 0.
func biasParams(b *ir.Value, w, in *qparams) *qparams {
	if w == nil || in == nil || in.perChannel || in.dynamic {
		return nil
	}
	q := &qparams{qInput: b, perChannel: w.perChannel, dtype: ir.Int32}
	if w.perChannel {
		q.scales = make([]float32, len(w.scales))
		for i, s := range w.scales {
			q.scales[i] = s * float32(in.scale)
		}
	} else {
		q.scale = w.scale * in.scale
	}
	return q
}

// quantizeConstant is QuantParams.quantize_tensor on a constant's data (only fp32 biases are
// quantized here; weights arrive quantized): round(x · (1/scale)) + zero point, clamped, in
// float32 as torch's decomposed kernels compute it.
func quantizeConstant(c *ir.Constant, name string, q *qparams) ([]byte, error) {
	if c.Meta.DType == q.dtype {
		return c.Data, nil
	}
	if c.Meta.DType != ir.Float32 || q.dtype != ir.Int32 {
		return nil, fmt.Errorf("constant %s is %s; etgo quantizes float32 biases to int32 only", name, c.Meta.DType)
	}
	n := len(c.Data) / 4
	out := make([]byte, 4*n)
	lo, hi := float32(math.MinInt32), float32(math.MaxInt32)
	for i := range n {
		x := math.Float32frombits(binary.LittleEndian.Uint32(c.Data[4*i:]))
		var inv float32
		if q.perChannel {
			if len(q.scales) != n {
				return nil, fmt.Errorf("constant %s: %d scales for %d elements", name, len(q.scales), n)
			}
			inv = 1 / q.scales[i]
		} else {
			inv = float32(1 / q.scale)
		}
		r := float32(math.RoundToEven(float64(x*inv))) + float32(q.zeroPoint)
		r = min(max(r, lo), hi)
		binary.LittleEndian.PutUint32(out[4*i:], uint32(int32(r)))
	}
	return out, nil
}

// floats64 reads a float32 or float64 constant.
func floats64(c *ir.Constant) ([]float64, error) {
	switch c.Meta.DType {
	case ir.Float32:
		out := make([]float64, len(c.Data)/4)
		for i := range out {
			out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(c.Data[4*i:])))
		}
		return out, nil
	case ir.Float64:
		out := make([]float64, len(c.Data)/8)
		for i := range out {
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(c.Data[8*i:]))
		}
		return out, nil
	}
	return nil, fmt.Errorf("scales are %s, not float", c.Meta.DType)
}

// permuteBytes lays out elements of size es as weightBytes does for floats: the first two axes
// swapped per group, then channels-last.
func permuteBytes(data []byte, es int, shape []int, o tensorOpts) ([]byte, error) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	if len(data) != n*es {
		return nil, fmt.Errorf("%d bytes for %d elements of %d bytes", len(data), n, es)
	}
	if o.swapIO {
		g := max(o.groups, 1)
		s0, s1 := shape[0], shape[1]
		inner := n / (s0 * s1) * es
		out := make([]byte, len(data))
		per := s0 / g
		for gi := 0; gi < g; gi++ {
			for a := 0; a < per; a++ {
				for b := 0; b < s1; b++ {
					src := ((gi*per+a)*s1 + b) * inner
					dst := ((gi*s1+b)*per + a) * inner
					copy(out[dst:dst+inner], data[src:src+inner])
				}
			}
		}
		data = out
		shape = append([]int{s1 * g, per}, shape[2:]...)
	}
	if o.nhwc {
		if len(shape) != 4 {
			return nil, fmt.Errorf("channels-last needs 4 dims, have %v", shape)
		}
		nb, ch, h, w := shape[0], shape[1], shape[2], shape[3]
		out := make([]byte, len(data))
		for i := 0; i < nb; i++ {
			for c := 0; c < ch; c++ {
				for y := 0; y < h; y++ {
					for x := 0; x < w; x++ {
						copy(out[(((i*h+y)*w+x)*ch+c)*es:][:es], data[(((i*ch+c)*h+y)*w+x)*es:][:es])
					}
				}
			}
		}
		data = out
	}
	return data, nil
}

// visitQuantize and visitDequantize are OpQuantizePerTensor and OpDeQuantizePerTensor: an
// implicit q/dq shares its input's value; an explicit one is a Convert. A dynamic quantize
// (OpDynamicQuantizePerTensor) is always a Convert, to a value quantized per row at run time.
func (p *preprocessor) visitQuantize(n *ir.Node) error {
	in, out := n.FirstTensorArg(), n.FirstOutput()
	q, err := p.qdqParams(n)
	if err != nil {
		return err
	}
	if p.implicit[n] && !q.dynamic {
		if id, ok := p.ids[in]; ok {
			p.ids[out] = id
		}
		return nil
	}
	if n.Target == "quantized_decomposed.quantize_per_tensor.tensor" && !q.dynamic {
		return fmt.Errorf("%s: a quantize with tensor parameters not chosen at run time", n.Name)
	}
	if err := p.define(in, tensorOpts{}); err != nil {
		return err
	}
	q.qInput = nil // the quantized value is the Convert's own, not its input's
	if err := p.define(out, tensorOpts{quant: q, quantSet: true}); err != nil {
		return err
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNConvert, Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}})
	return nil
}

func (p *preprocessor) visitDequantize(n *ir.Node) error {
	in, out := n.FirstTensorArg(), n.FirstOutput()
	if p.implicit[n] {
		if id, ok := p.ids[in]; ok {
			p.ids[out] = id
		}
		return nil
	}
	q, err := p.qdqParams(n)
	if err != nil {
		return err
	}
	if err := p.define(out, tensorOpts{}); err != nil {
		return err
	}
	q.qInput = nil
	if err := p.define(in, tensorOpts{quant: q, quantSet: true}); err != nil {
		return err
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNConvert, Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}})
	return nil
}

// visitQDQWeight is the per-channel q/dq visitor: nothing; the GEMM that reads it defines the
// quantized weight.
func (p *preprocessor) visitQDQWeight(*ir.Node) error { return nil }

// biasOpts are a GEMM bias's options: quantized to int32 when the input and weight are
// quantized (from_bias), fp32 otherwise.
func (p *preprocessor) biasOpts(b, in, w *ir.Value) (tensorOpts, error) {
	iq, err := p.quantOf(in)
	if err != nil {
		return tensorOpts{}, err
	}
	wq, err := p.quantOf(w)
	if err != nil {
		return tensorOpts{}, err
	}
	return tensorOpts{quant: biasParams(b, wq, iq), quantSet: true}, nil
}

// feedsConv is QuantParams._feeds_into_conv: a convolution among n's transitive readers before
// any linear.
func (p *preprocessor) feedsConv(n *ir.Node) bool {
	stack, seen := []*ir.Node{n}, map[*ir.Node]bool{}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[cur] {
			continue
		}
		seen[cur] = true
		if strings.Contains(cur.Target, "linear") {
			return false
		}
		if strings.Contains(cur.Target, "convolution") {
			return true
		}
		for _, v := range cur.Outputs {
			if v != nil {
				stack = append(stack, p.users[v]...)
			}
		}
	}
	return false
}

// visitAlias is a dynamic dequantize (always implicit: its reader takes the quantized value)
// and choose_qparams (the parameters are chosen by the Convert when the graph runs).
func (p *preprocessor) visitAlias(n *ir.Node) error {
	if configs.IsQParams(n) {
		return nil
	}
	if id, ok := p.ids[n.FirstTensorArg()]; ok {
		p.ids[n.FirstOutput()] = id
	}
	return nil
}

// affineParams reads torchao's quantize_affine/dequantize_affine of a static weight
// (extract_qdq_affine_op_args_for_decomposed_ops, then from_q_dq_node): blockwise when its
// blocks are [1, g] with g below the input channels (or equal, for 4-bit), else per channel.
func (p *preprocessor) affineParams(n *ir.Node, q *qparams) (*qparams, error) {
	if !configs.IsPerChannelGroup(n) {
		return nil, fmt.Errorf("%s: only blockwise or dynamic affine quantization is written so far", n.Name)
	}
	s, _ := configs.QParamArgs(n)
	c := p.params.Data(s)
	if c == nil || len(c.Meta.Sizes) != 2 {
		return nil, fmt.Errorf("%s: blockwise scales %v are not a 2-d constant", n.Name, s)
	}
	f, err := floats64(c)
	if err != nil {
		return nil, fmt.Errorf("%s: scales: %w", n.Name, err)
	}
	block := n.IntsArg("block_size", nil)
	qmin, qmax := n.IntArg("quant_min", -128), n.IntArg("quant_max", 127)
	w := q.qInput
	if w.Meta == nil || len(w.Meta.Sizes) != 2 || len(block) != 2 {
		return nil, fmt.Errorf("%s: blockwise quantization needs a 2-d weight and a 2-d block size", n.Name)
	}
	ic := w.Meta.Sizes[1].Size
	q.perChannel, q.dtype, q.axis = true, ir.Int8, 0
	q.qc4w = qmin == -8 && qmax == 7
	q.scales = make([]float32, len(f))
	for i, x := range f {
		q.scales[i] = float32(x)
	}
	g := block[1]
	if q.qc4w && g <= ic || !q.qc4w && g < ic {
		// The official preprocess's asserts, in its order (node_visitor.py's
		// check_per_channel_group_params).
		switch {
		case g%32 != 0:
			return nil, fmt.Errorf("%s: blockwise quantization needs a group size that is a multiple of 32, have %d (the official preprocess asserts the same)", n.Name, g)
		case ic%g != 0:
			return nil, fmt.Errorf("%s: blockwise quantization needs a group size dividing the %d input channels, have %d (the official preprocess asserts the same)", n.Name, ic, g)
		case !q.qc4w:
			return nil, fmt.Errorf("%s: only 4-bit group quantization is supported, have codes in [%d, %d] in groups of %d (the official preprocess asserts the same)", n.Name, qmin, qmax, g)
		}
		q.groupSize = int(g)
	}
	return q, nil
}

// qc4wShape is the shape convert_to_qc4w packs a 4-bit weight of the given shape as: after the
// swap of a depthwise or transposed convolution's axes, and squeezed (size-1 dims dropped)
// unless it is 2-d already. A 1×1 convolution's [out, in, 1, 1] filter becomes [out, in].
func qc4wShape(shape []int, o tensorOpts) []int {
	if o.swapIO && len(shape) >= 2 {
		g := max(o.groups, 1)
		shape = append([]int{shape[1] * g, shape[0] / g}, shape[2:]...)
	}
	if len(shape) == 2 {
		return shape
	}
	var sq []int
	for _, d := range shape {
		if d != 1 {
			sq = append(sq, d)
		}
	}
	return sq
}

// packQC4W is convert_to_qc4w: 4-bit codes offset by 8, two per byte (the even column in the
// low nibble), each row padded to an even length. Like it, a weight that does not squeeze to
// 2-d (a convolution with a kernel wider than 1×1) is refused.
func packQC4W(data []byte, shape []int) ([]byte, error) {
	if len(shape) != 2 {
		return nil, fmt.Errorf("convert_to_qc4w: a 4-bit per-channel weight must be 2-d once squeezed, have %d dims %v (the official preprocess asserts the same)", len(shape), shape)
	}
	oc, ic := shape[0], shape[1]
	if len(data) != oc*ic {
		return nil, fmt.Errorf("4-bit packing: %d bytes for a %d×%d weight", len(data), oc, ic)
	}
	half := (ic + 1) / 2
	out := make([]byte, oc*half)
	for r := 0; r < oc; r++ {
		for c := 0; c < ic; c++ {
			v := int8(data[r*ic+c])
			if v < -8 || v > 7 {
				return nil, fmt.Errorf("4-bit code %d out of [-8, 7] at [%d, %d]", v, r, c)
			}
			nib := byte(v+8) & 0xF
			if c%2 == 1 {
				nib <<= 4
			}
			out[r*half+c/2] |= nib
		}
		if ic%2 == 1 {
			out[r*half+half-1] |= 8 << 4 // the pad column: code 0, offset by 8
		}
	}
	return out, nil
}

// bf16 rounds a float32 to bfloat16 to nearest even, as torch's .to(torch.bfloat16) does (a
// NaN stays a quiet NaN).
func bf16(f float32) uint16 {
	b := math.Float32bits(f)
	if f != f {
		return uint16(b>>16) | 0x40
	}
	return uint16((b + 0x7FFF + (b>>16)&1) >> 16)
}

// visitAffine is OpDequantizeAffine / OpQuantizeAffine on a static weight: nothing (the
// GEMM defines the quantized weight); a dynamic one is the activation's Convert or its alias.
func (p *preprocessor) visitAffine(n *ir.Node) error {
	if configs.IsDynamicQDQ(n) {
		if configs.IsQuantize(n) {
			return p.visitQuantize(n)
		}
		return p.visitAlias(n)
	}
	if configs.IsPerChannelGroup(n) {
		return nil
	}
	return fmt.Errorf("%s: only blockwise or dynamic affine quantization is written so far", n.Name)
}
