package xnngraph

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/internal/fbverify"
)

// ErrInvalidBlob is wrapped by every error about a malformed delegate blob.
var ErrInvalidBlob = errors.New("invalid XNNPACK blob")

// BackendID is the backend id the delegates carrying these graphs name: ExecuTorch's
// XnnpackBackend, under which its runtime (and etgo's, package xnnpack) registers.
const BackendID = "XnnpackBackend"

const (
	headerMagic   = "XH00"
	headerMinSize = 30
	// InvalidID marks "no value" (no bias, not external).
	InvalidID = 0xFFFFFFFF
	// maxValues bounds a graph's value table; the official runtime caps externs at 4096.
	MaxExterns = 4096

	FlagExternalInput  = 1
	FlagExternalOutput = 2
)

// Graph is a decoded XNNPACK delegate graph.
type Graph struct {
	Version    string
	NumExterns uint32
	Values     []Value // in file order; Values[i].ID is its id (id_out)
	Nodes      []Node
	// Constants[k] describes constant_data[k]; k = 0 is the reserved "no data" entry.
	Constants []ConstantRef
	// ConstantRegion is the blob's inline constant data (after the flatbuffer).
	ConstantRegion []byte
	// Deprecated holds the constant_buffer of header-less (old) blobs.
	Deprecated [][]byte
	HasHeader  bool
}

// Value is one XNNPACK value (tensor).
type Value struct {
	ID          uint32
	DType       schema.XNNDatatype
	Dims        []uint32
	ConstantIdx uint32 // 0: not a constant
	ExternalID  uint32 // DelegateCall argument index, or InvalidID
	Flags       uint32
	Quantized   bool
	// Quant is a quantized value's parameters (nil when not quantized).
	Quant *QuantParams
}

// QuantParams are a quantized value's quantization parameters, as the blob states them.
type QuantParams struct {
	// Kind is the schema's XNNQuantParams tag: PerTensorQuant, PerChannelQuant,
	// PerTokenDynamicQuant (qdint8: parameters chosen per row when the graph runs) or
	// PerChannelGroupQuant (qbint4: one scale per block of GroupSize input channels).
	Kind schema.XNNQuantParams
	// Per tensor: real = Scale * (q - ZeroPoint).
	Scale     float32
	ZeroPoint int32
	// Per channel: Scales[c] for index c along ChannelDim, the zero point 0. Scales are inline,
	// or (ScaleBufferIdx != 0) in constant_data[ScaleBufferIdx] as NumScales fp32 values,
	// resolved when the plan is built.
	Scales         []float32
	ChannelDim     uint32
	ScaleBufferIdx uint32
	NumScales      uint32
	// Per token (dynamic): the trailing NumNonbatchDims dims form one row, quantized with its
	// own scale and zero point; the leading dims count the rows.
	NumNonbatchDims int32
	// Per channel group (blockwise): GroupSize input channels share a scale. The scales are
	// bf16, in constant_data[ScaleBufferIdx] (NumScales of them), or else the inline fp32
	// Scales converted, or the deprecated inline ScalesBF16.
	GroupSize  int32
	ScalesBF16 []uint16
}

// IsInput and IsOutput report the external flags.
func (v *Value) IsInput() bool  { return v.Flags&FlagExternalInput != 0 }
func (v *Value) IsOutput() bool { return v.Flags&FlagExternalOutput != 0 }

// ConstantRef locates constant data: in the named data store when HasKey, else at Offset in
// the blob's constant region.
type ConstantRef struct {
	Offset, Size uint64
	NamedKey     string
	HasKey       bool
}

// Node is one XNNPACK operation with its operands and parameters.
type Node struct {
	Op          schema.XNodeUnion
	DebugHandle uint32
	// OutputMin/Max clamp the result (±Inf when the node has none).
	OutputMin, OutputMax float32
	Inputs               []uint32 // value ids, in the operation's order (e.g. input, filter, bias)
	Outputs              []uint32
	Flags                uint32
	// Parameters, by table: conv, pooling, transpose/reshape/slice/pad shapes, concat axis, ...
	Conv        *ConvParams
	Pool        *PoolParams
	Perm        []uint32
	NewShape    []uint32
	Offsets     []uint32
	Sizes       []uint32
	PrePadding  []uint32
	PostPadding []uint32
	PadValue    float32
	Axis        uint32
	Alpha       float32 // ELU alpha, LeakyReLU negative slope
	NewHeight   uint32
	NewWidth    uint32
}

// ConvParams are a (depthwise, transposed) convolution's geometry.
type ConvParams struct {
	PadTop, PadRight, PadBottom, PadLeft uint32
	KernelH, KernelW                     uint32
	StrideH, StrideW                     uint32
	DilationH, DilationW                 uint32
	GroupInputChannels                   uint32
	GroupOutputChannels                  uint32
	Groups                               uint32
	AdjustmentH, AdjustmentW             uint32
}

// PoolParams are a pooling's geometry.
type PoolParams struct {
	PadTop, PadRight, PadBottom, PadLeft uint32
	PoolH, PoolW                         uint32
	StrideH, StrideW                     uint32
	DilationH, DilationW                 uint32
}

// OpName is the node type's schema name, e.g. "XNNConv2d".
func (n *Node) OpName() string { return n.Op.String() }

func blobErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidBlob, fmt.Sprintf(format, args...))
}

// ParseBlob verifies and decodes a delegate blob. The Graph's constant region aliases blob.
func ParseBlob(blob []byte) (*Graph, error) {
	fb, region, hasHeader, err := splitBlob(blob)
	if err != nil {
		return nil, err
	}
	if len(fb) < 8 {
		return nil, blobErr("flatbuffer of %d bytes is too short", len(fb))
	}
	if id := string(fb[4:8]); id != "XN00" && id != "XN01" {
		return nil, blobErr("identifier %q is not XN00 or XN01 (not an XNNPACK graph, or an unsupported version)", id)
	}
	if err := fbverify.Verify(fb, specGraph); err != nil {
		return nil, blobErr("flatbuffer: %v", err)
	}
	g := decodeGraph(fb)
	g.ConstantRegion, g.HasHeader = region, hasHeader
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if _, err := g.Schedule(); err != nil {
		return nil, err
	}
	return g, nil
}

// Describe counts a blob's nodes by type ("XNNConv2d": 3) and its values: what `etgo inspect`
// shows of a delegate (backends.Backend.DescribeBlob).
func Describe(blob []byte) (ops map[string]int, values int, err error) {
	g, err := ParseBlob(blob)
	if err != nil {
		return nil, 0, err
	}
	ops = map[string]int{}
	for i := range g.Nodes {
		ops[g.Nodes[i].OpName()]++
	}
	return ops, len(g.Values), nil
}

// splitBlob separates the XH00 header's flatbuffer and constant regions; a blob without the
// header is all flatbuffer.
func splitBlob(b []byte) (fb, region []byte, hasHeader bool, err error) {
	if len(b) < 8 || string(b[4:8]) != headerMagic {
		return b, nil, false, nil
	}
	if len(b) < headerMinSize {
		return nil, nil, false, blobErr("header needs %d bytes, the blob has %d", headerMinSize, len(b))
	}
	le := binary.LittleEndian
	fbOff, fbSize := uint64(le.Uint32(b[10:])), uint64(le.Uint32(b[14:]))
	cOff, cSize := uint64(le.Uint32(b[18:])), le.Uint64(b[22:])
	n := uint64(len(b))
	switch {
	case fbSize < 8:
		return nil, nil, false, blobErr("header: flatbuffer size %d is below 8", fbSize)
	case fbOff > n || fbSize > n-fbOff:
		return nil, nil, false, blobErr("header: flatbuffer [%d, +%d) runs past the blob's %d bytes", fbOff, fbSize, n)
	case cOff > n || cSize > n-cOff:
		return nil, nil, false, blobErr("header: constant data [%d, +%d) runs past the blob's %d bytes", cOff, cSize, n)
	case cOff < fbOff+fbSize:
		// (Whatever its size: the official runtime requires the constant data after the
		// flatbuffer.)
		return nil, nil, false, blobErr("header: constant data at %d does not start after the flatbuffer [%d, %d)", cOff, fbOff, fbOff+fbSize)
	}
	return b[fbOff : fbOff+fbSize], b[cOff : cOff+cSize], true, nil
}

func has(t flatbuffers.Table, slot int) bool { return t.Offset(flatbuffers.VOffsetT(4+2*slot)) != 0 }

func uint32s(n int, at func(int) uint32) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = at(i)
	}
	return out
}

// decodeGraph reads a verified flatbuffer.
func decodeGraph(buf []byte) *Graph {
	x := schema.GetRootAsXNNGraph(buf, 0)
	g := &Graph{Version: string(x.Version()), NumExterns: x.NumExterns()}
	var xv schema.XValue
	for i := 0; i < x.XvaluesLength(); i++ {
		x.Xvalues(&xv, i)
		g.Values = append(g.Values, decodeValue(&xv))
	}
	var xn schema.XNode
	for i := 0; i < x.XnodesLength(); i++ {
		x.Xnodes(&xn, i)
		g.Nodes = append(g.Nodes, decodeNode(&xn))
	}
	var cd schema.ConstantDataOffset
	for i := 0; i < x.ConstantDataLength(); i++ {
		x.ConstantData(&cd, i)
		g.Constants = append(g.Constants, ConstantRef{Offset: cd.Offset(), Size: cd.Size(), NamedKey: string(cd.NamedKey()), HasKey: has(cd.Table(), 2)})
	}
	var b schema.Buffer
	for i := 0; i < x.ConstantBufferLength(); i++ {
		x.ConstantBuffer(&b, i)
		g.Deprecated = append(g.Deprecated, b.StorageBytes())
	}
	return g
}

func decodeValue(xv *schema.XValue) Value {
	var tab flatbuffers.Table
	if !xv.XvalueUnion(&tab) {
		return Value{DType: schema.XNNDatatypexnn_datatype_invalid}
	}
	var tv *schema.XNNTensorValue
	var qp *QuantParams
	switch xv.XvalueUnionType() {
	case schema.XValueUnionXNNTensorValue:
		tv = new(schema.XNNTensorValue)
		tv.Init(tab.Bytes, tab.Pos)
	case schema.XValueUnionXNNQuantizedTensorValue:
		var q schema.XNNQuantizedTensorValue
		q.Init(tab.Bytes, tab.Pos)
		tv, qp = q.TensorValue(nil), decodeQuant(&q)
	}
	if tv == nil {
		return Value{DType: schema.XNNDatatypexnn_datatype_invalid}
	}
	return Value{ID: tv.IdOut(), DType: tv.Datatype(), Dims: uint32s(tv.DimsLength(), tv.Dims), ConstantIdx: tv.ConstantBufferIdx(),
		ExternalID: tv.ExternalId(), Flags: tv.Flags(), Quantized: qp != nil, Quant: qp}
}

// decodeQuant reads a quantized value's parameters; validate checks them. A missing table gives
// Kind NONE, which validate refuses.
func decodeQuant(q *schema.XNNQuantizedTensorValue) *QuantParams {
	qp := &QuantParams{Kind: q.QuantParamsType()}
	var tab flatbuffers.Table
	if !q.QuantParams(&tab) {
		qp.Kind = schema.XNNQuantParamsNONE
		return qp
	}
	switch qp.Kind {
	case schema.XNNQuantParamsPerTensorQuant:
		var t schema.PerTensorQuant
		t.Init(tab.Bytes, tab.Pos)
		qp.Scale, qp.ZeroPoint = t.Scale(), t.ZeroPoint()
	case schema.XNNQuantParamsPerChannelQuant:
		var t schema.PerChannelQuant
		t.Init(tab.Bytes, tab.Pos)
		qp.Scales = make([]float32, t.ScaleLength())
		for i := range qp.Scales {
			qp.Scales[i] = t.Scale(i)
		}
		qp.ChannelDim, qp.ScaleBufferIdx, qp.NumScales = uint32(t.ChannelDim()), t.ScaleBufferIdx(), t.NumScales()
	case schema.XNNQuantParamsPerTokenDynamicQuant:
		var t schema.PerTokenDynamicQuant
		t.Init(tab.Bytes, tab.Pos)
		qp.NumNonbatchDims = t.NumNonbatchDims()
	case schema.XNNQuantParamsPerChannelGroupQuant:
		var t schema.PerChannelGroupQuant
		t.Init(tab.Bytes, tab.Pos)
		qp.Scales = make([]float32, t.ScaleLength())
		for i := range qp.Scales {
			qp.Scales[i] = t.Scale(i)
		}
		qp.ScalesBF16 = make([]uint16, t.ScaleBf16Length())
		for i := range qp.ScalesBF16 {
			qp.ScalesBF16[i] = t.ScaleBf16(i)
		}
		qp.ChannelDim, qp.GroupSize = uint32(max(t.ChannelDim(), 0)), t.GroupSize()
		if t.ChannelDim() < 0 {
			qp.ChannelDim = math.MaxUint32 // (validate refuses it)
		}
		qp.ScaleBufferIdx, qp.NumScales = t.ScaleBufferIdx(), t.NumScales()
	}
	return qp
}

func decodeNode(xn *schema.XNode) Node {
	n := Node{Op: xn.XnodeUnionType(), DebugHandle: xn.DebugHandle(), OutputMin: float32(math.Inf(-1)), OutputMax: float32(math.Inf(1))}
	t := lookup(n.Op)
	if mm := xn.OutputMinMax(nil); mm != nil && t != nil && t.outputRange {
		n.OutputMin, n.OutputMax = mm.OutputMin(), mm.OutputMax()
	}
	var tab flatbuffers.Table
	if t == nil || !xn.XnodeUnion(&tab) {
		return n // (Validate refuses an unknown type)
	}
	t.decode(tab, &n)
	return n
}

// validate checks a value's quantization parameters against its dims and the constant table.
// Kinds the plan refuses anyway (dynamic, blockwise) are only checked for being known.
func (q *QuantParams) validate(v *Value, nConst int) error {
	switch q.Kind {
	case schema.XNNQuantParamsPerTensorQuant:
		if !normalScale(q.Scale) {
			return blobErr("value %d: per-tensor scale %g is not a positive normal number", v.ID, q.Scale)
		}
	case schema.XNNQuantParamsPerChannelQuant:
		if int(q.ChannelDim) >= len(v.Dims) {
			return blobErr("value %d: channel_dim %d out of range for dims %v", v.ID, q.ChannelDim, v.Dims)
		}
		want := v.Dims[q.ChannelDim]
		if q.ScaleBufferIdx != 0 {
			// (num_scales is not checked: the official runtime reads one scale per channel
			// whatever it says; resolveQuant checks the buffer holds that many.)
			if int(q.ScaleBufferIdx) >= nConst {
				return blobErr("value %d: scale_buffer_idx %d out of range (the graph has %d constants)", v.ID, q.ScaleBufferIdx, nConst)
			}
			break
		}
		if uint32(len(q.Scales)) != want {
			return blobErr("value %d: %d scales, but dim %d of %v has %d channels", v.ID, len(q.Scales), q.ChannelDim, v.Dims, want)
		}
		for c, s := range q.Scales {
			if !normalScale(s) {
				return blobErr("value %d: scale %g of channel %d is not a positive normal number", v.ID, s, c)
			}
		}
	case schema.XNNQuantParamsPerTokenDynamicQuant:
		// XNNPACK refuses more non-batch dims than the value has (and reads the field as
		// unsigned, so a negative count is as many).
		if q.NumNonbatchDims < 0 || int(q.NumNonbatchDims) > len(v.Dims) {
			return blobErr("value %d: num_nonbatch_dims %d out of range for dims %v", v.ID, q.NumNonbatchDims, v.Dims)
		}
		if v.ConstantIdx != 0 {
			return blobErr("value %d is dynamically quantized (per token) but has constant data", v.ID)
		}
	case schema.XNNQuantParamsPerChannelGroupQuant:
		// The official runtime reads dims[0] and dims[1] as output and input channels and
		// checks the scale count against them; XNNPACK needs whole blocks per channel.
		if len(v.Dims) != 2 {
			return blobErr("value %d: per-channel-group quantization of dims %v; it needs [out, in]", v.ID, v.Dims)
		}
		if int(q.ChannelDim) >= len(v.Dims) {
			return blobErr("value %d: channel_dim %d out of range for dims %v", v.ID, q.ChannelDim, v.Dims)
		}
		oc, ic := uint64(v.Dims[0]), uint64(v.Dims[1])
		if q.GroupSize <= 0 || ic%uint64(q.GroupSize) != 0 {
			return blobErr("value %d: group_size %d does not divide the %d input channels of %v", v.ID, q.GroupSize, ic, v.Dims)
		}
		want := oc * (ic / uint64(q.GroupSize))
		if q.ScaleBufferIdx != 0 {
			if int(q.ScaleBufferIdx) >= nConst {
				return blobErr("value %d: scale_buffer_idx %d out of range (the graph has %d constants)", v.ID, q.ScaleBufferIdx, nConst)
			}
			if uint64(q.NumScales) != want {
				return blobErr("value %d: num_scales %d, but %v in groups of %d has %d", v.ID, q.NumScales, v.Dims, q.GroupSize, want)
			}
			break
		}
		if uint64(len(q.Scales)) != want {
			return blobErr("value %d: %d scales, but %v in groups of %d has %d", v.ID, len(q.Scales), v.Dims, q.GroupSize, want)
		}
	default:
		return blobErr("value %d is quantized but has no (or unknown) quantization parameters (kind %d)", v.ID, q.Kind)
	}
	return nil
}

// normalScale reports whether s is a quantization scale XNNPACK accepts: positive and normal
// (not zero, subnormal, infinite or NaN).
func normalScale(s float32) bool {
	return s >= math.SmallestNonzeroFloat32*(1<<23) && !math.IsInf(float64(s), 1)
}

// MaxDims is XNNPACK's XNN_MAX_TENSOR_DIMS.
const MaxDims = 6

// Validate checks every cross-reference, so that later stages index without checking: value
// ids unique and referenced ids present, dims bounded, constant indices in range, flags known.
func (g *Graph) Validate() error {
	if g.NumExterns > MaxExterns {
		return blobErr("num_externs %d exceeds %d", g.NumExterns, MaxExterns)
	}
	ids := make(map[uint32]int, len(g.Values))
	nConst := len(g.Constants)
	if !g.HasHeader {
		nConst = len(g.Deprecated)
	}
	for i := range g.Values {
		v := &g.Values[i]
		if v.DType == schema.XNNDatatypexnn_datatype_invalid {
			return blobErr("value %d has no datatype (or an unknown value kind)", i)
		}
		if _, dup := ids[v.ID]; dup {
			return blobErr("value %d: id %d appears twice", i, v.ID)
		}
		ids[v.ID] = i
		if len(v.Dims) > MaxDims {
			return blobErr("value %d: %d dims exceed %d", v.ID, len(v.Dims), MaxDims)
		}
		n := uint64(1)
		for _, d := range v.Dims {
			n *= uint64(d)
			if n > uint64(MaxValueElements) && v.Flags == 0 {
				// The official runtime plans memory for every internal value and constant from
				// its declared dims and fails (out of memory) long before this. (A graph input's
				// or output's shape comes from the call's tensors, whatever the blob declares.)
				return blobErr("value %d: dims %v hold more than %d elements", v.ID, v.Dims, MaxValueElements)
			}
			n = min(n, 1<<40)
		}
		if v.Flags&^(FlagExternalInput|FlagExternalOutput) != 0 {
			return blobErr("value %d: unknown flags 0x%x", v.ID, v.Flags)
		}
		if v.Flags != 0 && v.ExternalID == InvalidID {
			return blobErr("value %d is external but has no external id", v.ID)
		}
		if v.ExternalID != InvalidID && v.ExternalID >= g.NumExterns {
			// (Whatever its flags: XNNPACK places a value with an external id in that slot.)
			return blobErr("value %d: external id %d out of range (num_externs %d)", v.ID, v.ExternalID, g.NumExterns)
		}
		if v.ConstantIdx != 0 && int(v.ConstantIdx) >= nConst {
			return blobErr("value %d: constant %d out of range (the graph has %d)", v.ID, v.ConstantIdx, nConst)
		}
		if v.ConstantIdx != 0 && v.Flags != 0 {
			return blobErr("value %d is both constant and external", v.ID)
		}
		if v.Quant != nil {
			if err := v.Quant.validate(v, nConst); err != nil {
				return err
			}
		}
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if lookup(n.Op) == nil {
			return blobErr("node %d: unknown node type %d", i, n.Op)
		}
		if lo, hi := n.OutputMin, n.OutputMax; lo != lo || hi != hi || lo > hi {
			return blobErr("node %d (%s): output range [%g, %g] is not a range", i, n.OpName(), lo, hi)
		}
		for _, group := range [][]uint32{n.Inputs, n.Outputs} {
			for _, id := range group {
				if id == InvalidID {
					continue // an absent optional operand (bias, mask)
				}
				if _, ok := ids[id]; !ok {
					return blobErr("node %d (%s): value id %d does not exist", i, n.OpName(), id)
				}
			}
		}
		if len(n.Outputs) == 0 || n.Outputs[0] == InvalidID {
			return blobErr("node %d (%s) has no output", i, n.OpName())
		}
		if n.Op == schema.XNodeUnionXNNConv2d || n.Op == schema.XNodeUnionXNNConvTranspose2d {
			// XNNPACK's xnn_define_convolution_2d and _deconvolution_2d: a qdint8 input keeps
			// at least one batch dim (a fully connected layer's may have none).
			if len(n.Inputs) > 0 && n.Inputs[0] != InvalidID {
				if v := &g.Values[ids[n.Inputs[0]]]; v.DType == schema.XNNDatatypexnn_datatype_qdint8 && v.Quant != nil && int(v.Quant.NumNonbatchDims) >= len(v.Dims) {
					return blobErr("node %d (%s): its qdint8 input, value %d, has num_nonbatch_dims %d, not below its %d dims", i, n.OpName(), v.ID, v.Quant.NumNonbatchDims, len(v.Dims))
				}
			}
		}
	}
	return nil
}

// ConstantBytes returns constant_data[idx] (or the deprecated buffer idx) for value id: from the
// named data store, or copied out of the blob's constant region (the blob is not kept after Init).
func (g *Graph) ConstantBytes(id, idx uint32, named func(string) ([]byte, error)) ([]byte, error) {
	if !g.HasHeader {
		if int(idx) >= len(g.Deprecated) {
			return nil, blobErr("value %d: constant %d out of range (the graph has %d)", id, idx, len(g.Deprecated))
		}
		return g.Deprecated[idx], nil
	}
	if int(idx) >= len(g.Constants) {
		return nil, blobErr("value %d: constant %d out of range (the graph has %d)", id, idx, len(g.Constants))
	}
	ref := g.Constants[idx]
	if ref.HasKey {
		if named == nil {
			return nil, blobErr("value %d: constant %q is in named data, which this program does not provide", id, ref.NamedKey)
		}
		b, err := named(ref.NamedKey)
		if err != nil {
			return nil, blobErr("value %d: constant %q: %v", id, ref.NamedKey, err)
		}
		return b, nil
	}
	if ref.Offset > uint64(len(g.ConstantRegion)) || ref.Size > uint64(len(g.ConstantRegion))-ref.Offset {
		return nil, blobErr("value %d: constant data [%d, +%d) runs past the blob's %d-byte constant region", id, ref.Offset, ref.Size, len(g.ConstantRegion))
	}
	return slices.Clone(g.ConstantRegion[ref.Offset : ref.Offset+ref.Size]), nil
}
