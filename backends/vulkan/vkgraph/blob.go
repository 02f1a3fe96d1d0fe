package vkgraph

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/internal/fbverify"
)

// ErrInvalidBlob is wrapped by every error about a malformed delegate blob.
var ErrInvalidBlob = errors.New("invalid Vulkan blob")

// BackendID is the backend id the delegates carrying these graphs name: ExecuTorch's
// VulkanBackend (the class vulkan_preprocess defines; its runtime registers under it).
const BackendID = "VulkanBackend"

const (
	headerMagic = "VH00"
	// HeaderLength is the header's own size, as its header_size field states it.
	HeaderLength = 30
	// Alignment is what the header, the flatbuffer, the constant region and every inline
	// constant are padded to.
	Alignment = 16
	// MaxDims bounds a tensor's rank: the official runtime's tensors have at most 8 dims
	// (its buffer metadata holds 8 strides).
	MaxDims = 8
	// NamedData is the offset of a constant stored in the program's named data.
	NamedData = math.MaxUint64
)

// Graph is a decoded Vulkan delegate graph.
type Graph struct {
	Version string
	// Chain is the operators in execution order.
	Chain  []OpCall
	Values []Value
	// InputIDs and OutputIDs are the values the delegate call's arguments bind, in order.
	InputIDs, OutputIDs []uint32
	Constants           []Bytes
	Shaders             []Bytes
	// The graph-wide overrides (DefaultStorage / DefaultLayout: none).
	StorageTypeOverride  schema.VkStorageType
	MemoryLayoutOverride schema.VkMemoryLayout
	// ConstantRegion is the blob's inline constant data (after the flatbuffer).
	ConstantRegion []byte
}

// OpCall is one operator of the chain: the operator's registered name ("aten.add.Tensor") and
// the value ids of its arguments.
type OpCall struct {
	NodeID uint32
	Name   string
	Args   []int32
}

// Value is one graph value; Kind says which field holds it.
type Value struct {
	Kind       schema.GraphTypes
	Tensor     *Tensor
	Int        int64
	Double     float64
	Bool       bool
	String     string
	SymInt     int32
	IntList    []int64
	DoubleList []float64
	BoolList   []bool
	ValueList  []int32
}

// Tensor is a tensor value's description.
type Tensor struct {
	DType schema.VkDataType
	Dims  []uint32
	// ConstantID indexes Graph.Constants, -1 when the tensor is not a constant.
	ConstantID int32
	// MemObjID is the shared memory object the tensor lives in, -1 for its own.
	MemObjID        int32
	StorageType     schema.VkStorageType
	MemoryLayout    schema.VkMemoryLayout
	StagingDataType schema.VkDataType
}

// Bytes locates a constant: Length bytes at Offset in the constant region, or (Offset ==
// NamedData) the program's named data entry NamedKey.
type Bytes struct {
	Offset, Length uint64
	NamedKey       string
	HasKey         bool
}

// IsNamed reports a constant stored in the program's named data.
func (b Bytes) IsNamed() bool { return b.Offset == NamedData && b.HasKey }

func blobErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidBlob, fmt.Sprintf(format, args...))
}

// Header is the VH00 header's fields.
type Header struct {
	HeaderSize       uint16
	FlatbufferOffset uint32
	FlatbufferSize   uint32
	BytesOffset      uint32
	BytesSize        uint64
}

// ParseHeader reads and checks the header as the official runtime does
// (VulkanDelegateHeader::parse): the magic at bytes 4..8, a header size of at least 30, the
// flatbuffer after the header and non-empty, the constant region after the flatbuffer, both
// inside the blob. The official runtime refuses a blob without the header.
func ParseHeader(b []byte) (Header, error) {
	if len(b) < HeaderLength {
		return Header{}, blobErr("header needs %d bytes, the blob has %d", HeaderLength, len(b))
	}
	if string(b[4:8]) != headerMagic {
		return Header{}, blobErr("header magic %q is not %q", b[4:8], headerMagic)
	}
	le := binary.LittleEndian
	h := Header{le.Uint16(b[8:]), le.Uint32(b[10:]), le.Uint32(b[14:]), le.Uint32(b[18:]), le.Uint64(b[22:])}
	n := uint64(len(b))
	fbOff, fbSize, cOff := uint64(h.FlatbufferOffset), uint64(h.FlatbufferSize), uint64(h.BytesOffset)
	switch {
	case h.HeaderSize < HeaderLength:
		return h, blobErr("header: header size %d is below %d", h.HeaderSize, HeaderLength)
	case fbOff < uint64(h.HeaderSize):
		return h, blobErr("header: flatbuffer offset %d is inside the %d-byte header", fbOff, h.HeaderSize)
	case fbSize == 0:
		return h, blobErr("header: the flatbuffer is empty")
	case cOff < fbOff+fbSize:
		return h, blobErr("header: constant data at %d does not start after the flatbuffer [%d, %d)", cOff, fbOff, fbOff+fbSize)
	case fbOff > n || fbSize > n-fbOff:
		return h, blobErr("header: flatbuffer [%d, +%d) runs past the blob's %d bytes", fbOff, fbSize, n)
	case cOff > n || h.BytesSize > n-cOff:
		return h, blobErr("header: constant data [%d, +%d) runs past the blob's %d bytes", cOff, h.BytesSize, n)
	}
	return h, nil
}

// ParseBlob verifies and decodes a delegate blob. The Graph's constant region aliases blob.
func ParseBlob(blob []byte) (*Graph, error) {
	h, err := ParseHeader(blob)
	if err != nil {
		return nil, err
	}
	fb := blob[h.FlatbufferOffset : uint64(h.FlatbufferOffset)+uint64(h.FlatbufferSize)]
	region := blob[h.BytesOffset : uint64(h.BytesOffset)+h.BytesSize]
	if h.BytesSize == 0 {
		// As the official runtime: an unstated size means the rest of the blob.
		region = blob[h.BytesOffset:]
	}
	if len(fb) < 8 {
		return nil, blobErr("flatbuffer of %d bytes is too short", len(fb))
	}
	if id := string(fb[4:8]); id != schema.VkGraphIdentifier {
		return nil, blobErr("flatbuffer identifier %q is not %q (not a Vulkan graph, or another version)", id, schema.VkGraphIdentifier)
	}
	if err := fbverify.Verify(fb, specGraph); err != nil {
		return nil, blobErr("flatbuffer: %v", err)
	}
	g := decodeGraph(fb)
	g.ConstantRegion = region
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}

// Describe counts a blob's operators by name ("aten.convolution.default": 3) and its values:
// what `etgo inspect` shows of a delegate (backends.Backend.DescribeBlob).
func Describe(blob []byte) (ops map[string]int, values int, err error) {
	g, err := ParseBlob(blob)
	if err != nil {
		return nil, 0, err
	}
	ops = map[string]int{}
	for _, c := range g.Chain {
		ops[c.Name]++
	}
	return ops, len(g.Values), nil
}

func has(t flatbuffers.Table, slot int) bool { return t.Offset(flatbuffers.VOffsetT(4+2*slot)) != 0 }

// decodeGraph reads a verified flatbuffer.
func decodeGraph(buf []byte) *Graph {
	x := schema.GetRootAsVkGraph(buf, 0)
	g := &Graph{Version: string(x.Version()), StorageTypeOverride: x.StorageTypeOverride(), MemoryLayoutOverride: x.MemoryLayoutOverride()}
	var oc schema.OperatorCall
	for i := range x.ChainLength() {
		x.Chain(&oc, i)
		c := OpCall{NodeID: oc.NodeId(), Name: string(oc.Name()), Args: make([]int32, oc.ArgsLength())}
		for j := range c.Args {
			c.Args[j] = oc.Args(j)
		}
		g.Chain = append(g.Chain, c)
	}
	var v schema.VkValue
	g.Values = make([]Value, x.ValuesLength())
	for i := range g.Values {
		x.Values(&v, i)
		g.Values[i] = decodeValue(&v)
	}
	g.InputIDs = make([]uint32, x.InputIdsLength())
	for i := range g.InputIDs {
		g.InputIDs[i] = x.InputIds(i)
	}
	g.OutputIDs = make([]uint32, x.OutputIdsLength())
	for i := range g.OutputIDs {
		g.OutputIDs[i] = x.OutputIds(i)
	}
	var b schema.VkBytes
	for i := range x.ConstantsLength() {
		x.Constants(&b, i)
		g.Constants = append(g.Constants, decodeBytes(&b))
	}
	for i := range x.ShadersLength() {
		x.Shaders(&b, i)
		g.Shaders = append(g.Shaders, decodeBytes(&b))
	}
	return g
}

func decodeBytes(b *schema.VkBytes) Bytes {
	return Bytes{Offset: b.Offset(), Length: b.Length(), NamedKey: string(b.NamedKey()), HasKey: has(b.Table(), 2)}
}

// decodeValue reads one value; a union without its table decodes as Kind NONE, which
// Validate refuses.
func decodeValue(v *schema.VkValue) Value {
	var tab flatbuffers.Table
	out := Value{Kind: v.ValueType()}
	if !v.Value(&tab) {
		out.Kind = schema.GraphTypesNONE
		return out
	}
	switch out.Kind {
	case schema.GraphTypesVkTensor:
		var t schema.VkTensor
		t.Init(tab.Bytes, tab.Pos)
		out.Tensor = &Tensor{DType: t.Datatype(), Dims: make([]uint32, t.DimsLength()), ConstantID: t.ConstantId(),
			MemObjID: t.MemObjId(), StorageType: t.StorageType(), MemoryLayout: t.MemoryLayout(), StagingDataType: t.StagingDatatype()}
		for i := range out.Tensor.Dims {
			out.Tensor.Dims[i] = t.Dims(i)
		}
	case schema.GraphTypesInt:
		var t schema.Int
		t.Init(tab.Bytes, tab.Pos)
		out.Int = t.IntVal()
	case schema.GraphTypesDouble:
		var t schema.Double
		t.Init(tab.Bytes, tab.Pos)
		out.Double = t.DoubleVal()
	case schema.GraphTypesBool:
		var t schema.Bool
		t.Init(tab.Bytes, tab.Pos)
		out.Bool = t.BoolVal()
	case schema.GraphTypesString:
		var t schema.String
		t.Init(tab.Bytes, tab.Pos)
		out.String = string(t.StringVal())
	case schema.GraphTypesSymInt:
		var t schema.SymInt
		t.Init(tab.Bytes, tab.Pos)
		out.SymInt = t.Value()
	case schema.GraphTypesIntList:
		var t schema.IntList
		t.Init(tab.Bytes, tab.Pos)
		out.IntList = make([]int64, t.ItemsLength())
		for i := range out.IntList {
			out.IntList[i] = t.Items(i)
		}
	case schema.GraphTypesDoubleList:
		var t schema.DoubleList
		t.Init(tab.Bytes, tab.Pos)
		out.DoubleList = make([]float64, t.ItemsLength())
		for i := range out.DoubleList {
			out.DoubleList[i] = t.Items(i)
		}
	case schema.GraphTypesBoolList:
		var t schema.BoolList
		t.Init(tab.Bytes, tab.Pos)
		out.BoolList = make([]bool, t.ItemsLength())
		for i := range out.BoolList {
			out.BoolList[i] = t.Items(i)
		}
	case schema.GraphTypesValueList:
		var t schema.ValueList
		t.Init(tab.Bytes, tab.Pos)
		out.ValueList = make([]int32, t.ItemsLength())
		for i := range out.ValueList {
			out.ValueList[i] = t.Items(i)
		}
	}
	return out
}

// ElementSize is the bytes per element of a datatype, 0 for UNSET or an unknown one.
func ElementSize(d schema.VkDataType) uint64 {
	switch d {
	case schema.VkDataTypeBOOL, schema.VkDataTypeUINT8, schema.VkDataTypeINT8:
		return 1
	case schema.VkDataTypeFLOAT16:
		return 2
	case schema.VkDataTypeINT32, schema.VkDataTypeFLOAT32:
		return 4
	case schema.VkDataTypeFLOAT64, schema.VkDataTypeINT64:
		return 8
	}
	return 0
}

// Validate checks a decoded graph's indices and sizes; ParseBlob calls it.
func (g *Graph) Validate() error {
	n := len(g.Values)
	inRange := func(id int64) bool { return id >= 0 && id < int64(n) }
	for i := range g.Values {
		if err := g.validateValue(i); err != nil {
			return err
		}
	}
	for i, c := range g.Chain {
		if c.Name == "" {
			return blobErr("chain[%d]: operator without a name", i)
		}
		for j, a := range c.Args {
			if !inRange(int64(a)) {
				return blobErr("chain[%d] (%s): argument %d is value %d, the graph has %d", i, c.Name, j, a, n)
			}
		}
	}
	for what, ids := range map[string][]uint32{"input_ids": g.InputIDs, "output_ids": g.OutputIDs} {
		for j, id := range ids {
			if !inRange(int64(id)) {
				return blobErr("%s[%d] is value %d, the graph has %d", what, j, id, n)
			}
			if g.Values[id].Kind != schema.GraphTypesVkTensor {
				return blobErr("%s[%d]: value %d is a %s, not a tensor", what, j, id, g.Values[id].Kind)
			}
		}
	}
	for i, c := range g.Constants {
		if c.IsNamed() {
			if c.NamedKey == "" {
				return blobErr("constants[%d]: named data with an empty key", i)
			}
			continue
		}
		if c.Offset > uint64(len(g.ConstantRegion)) || c.Length > uint64(len(g.ConstantRegion))-c.Offset {
			return blobErr("constants[%d]: [%d, +%d) runs past the constant region's %d bytes", i, c.Offset, c.Length, len(g.ConstantRegion))
		}
	}
	if len(g.Shaders) > 0 {
		// The official serializer refuses to write custom shaders and its runtime never reads
		// them; a blob that carries some was not made by the official toolchain.
		return blobErr("the graph carries %d custom shaders, which no Vulkan runtime reads", len(g.Shaders))
	}
	return nil
}

func (g *Graph) validateValue(i int) error {
	v := &g.Values[i]
	n := len(g.Values)
	switch v.Kind {
	case schema.GraphTypesNONE:
		return blobErr("values[%d]: no value", i)
	case schema.GraphTypesVkTensor:
		t := v.Tensor
		if ElementSize(t.DType) == 0 {
			return blobErr("values[%d]: tensor of datatype %s", i, t.DType)
		}
		if len(t.Dims) > MaxDims {
			return blobErr("values[%d]: tensor of %d dims (at most %d)", i, len(t.Dims), MaxDims)
		}
		bytes := ElementSize(t.DType)
		for _, d := range t.Dims {
			hi, lo := bits.Mul64(bytes, uint64(d))
			if hi != 0 || lo > math.MaxInt64 {
				return blobErr("values[%d]: tensor of dims %v overflows", i, t.Dims)
			}
			bytes = lo
		}
		if t.MemObjID < -1 {
			return blobErr("values[%d]: memory object id %d", i, t.MemObjID)
		}
		if t.ConstantID < -1 || int64(t.ConstantID) >= int64(len(g.Constants)) {
			return blobErr("values[%d]: constant id %d, the graph has %d constants", i, t.ConstantID, len(g.Constants))
		}
		if t.ConstantID >= 0 {
			c := g.Constants[t.ConstantID]
			// As the official runtime: an inline constant starts inside the region (even an
			// empty one) and the tensor's bytes fit in what follows.
			if !c.IsNamed() && c.Offset >= uint64(len(g.ConstantRegion)) {
				return blobErr("values[%d]: constant tensor at offset %d, outside the constant region's %d bytes", i, c.Offset, len(g.ConstantRegion))
			}
			if !c.IsNamed() && bytes > uint64(len(g.ConstantRegion))-c.Offset {
				return blobErr("values[%d]: constant tensor of %d bytes at offset %d runs past the constant region's %d bytes",
					i, bytes, c.Offset, len(g.ConstantRegion))
			}
		}
	case schema.GraphTypesValueList:
		for j, id := range v.ValueList {
			if id < 0 || int(id) >= n {
				return blobErr("values[%d]: list item %d is value %d, the graph has %d", i, j, id, n)
			}
		}
	case schema.GraphTypesNull, schema.GraphTypesInt, schema.GraphTypesDouble, schema.GraphTypesBool, schema.GraphTypesString,
		schema.GraphTypesSymInt, schema.GraphTypesIntList, schema.GraphTypesDoubleList, schema.GraphTypesBoolList:
	default:
		return blobErr("values[%d]: unknown value type %d", i, v.Kind)
	}
	return nil
}
