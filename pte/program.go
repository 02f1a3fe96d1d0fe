package pte

import "github.com/etgo/etgo/pte/schema"

// Program is the decoded flatbuffer of a .pte file: the tables of program.fbs as Go values.
// Byte fields (constant buffers, inline delegate data, compile-spec values) alias the file's
// bytes; they are never copied on read.
//
// Presence follows ExecuTorch's serializer: a nil slice of an optional field (marked
// "optional" below) or a nil pointer is absent from the flatbuffer; every other slice and every
// string is written, even when empty.
type Program struct {
	Version             uint32
	ExecutionPlans      []*ExecutionPlan
	ConstantBuffer      []Buffer // deprecated inline constants; index 0 is a reserved empty entry
	BackendDelegateData []InlineData
	Segments            []DataSegment
	ConstantSegment     *SubsegmentOffsets
	MutableDataSegments []SubsegmentOffsets // optional
	NamedData           []NamedData         // optional
}

// Buffer is one deprecated inline constant.
type Buffer struct{ Storage []byte }

// InlineData is one delegate blob stored inside the flatbuffer.
type InlineData struct{ Data []byte }

// DataSegment locates a segment relative to the extended header's segment_base_offset.
type DataSegment struct{ Offset, Size uint64 }

// SubsegmentOffsets locates entries inside one segment; Offsets[0] is a reserved placeholder.
type SubsegmentOffsets struct {
	SegmentIndex uint32
	Offsets      []uint64
}

// NamedData maps a key to a whole segment (delegate weights, keyed by content hash).
type NamedData struct {
	Key          string
	SegmentIndex uint32
}

// ExecutionPlan is one method.
type ExecutionPlan struct {
	Name                 string
	ContainerMetaType    *ContainerMetadata
	Values               []EValue
	Inputs               []int32 // value indices
	Outputs              []int32 // value indices
	Chains               []Chain
	Operators            []Operator
	Delegates            []BackendDelegate
	NonConstBufferSizes  []int64                // index 0 is reserved; memory_id k names entry k
	NonConstBufferDevice []NonConstBufferDevice // optional
}

// ContainerMetadata holds the pytree encodings of a method's inputs and outputs (opaque text in
// one of two encodings).
type ContainerMetadata struct{ EncodedInpStr, EncodedOutStr string }

// NonConstBufferDevice places a planned buffer on a device; absent entries are CPU.
type NonConstBufferDevice struct {
	BufferIdx   int32
	DeviceType  schema.DeviceType
	DeviceIndex int8
}

// EValue is one entry of a plan's value table: Null, Int, Bool, Double, String, *Tensor,
// IntList, DoubleList, BoolList, TensorList or OptionalTensorList. A nil EValue is the union's
// NONE, which validation refuses.
type EValue interface{ kernelType() schema.KernelTypes }

type (
	Null   struct{}
	Int    struct{ Val int64 }
	Bool   struct{ Val bool }
	Double struct{ Val float64 }
	String struct{ Val string }
	// IntList items are indices of Int values, not literal integers.
	IntList    struct{ Items []int64 }
	DoubleList struct{ Items []float64 }
	BoolList   struct{ Items []bool }
	// TensorList items are indices of Tensor values.
	TensorList struct{ Items []int32 }
	// OptionalTensorList items are indices of Tensor or Null values; -1 means None.
	OptionalTensorList struct{ Items []int32 }
)

func (Null) kernelType() schema.KernelTypes       { return schema.KernelTypesNull }
func (Int) kernelType() schema.KernelTypes        { return schema.KernelTypesInt }
func (Bool) kernelType() schema.KernelTypes       { return schema.KernelTypesBool }
func (Double) kernelType() schema.KernelTypes     { return schema.KernelTypesDouble }
func (String) kernelType() schema.KernelTypes     { return schema.KernelTypesString }
func (*Tensor) kernelType() schema.KernelTypes    { return schema.KernelTypesTensor }
func (IntList) kernelType() schema.KernelTypes    { return schema.KernelTypesIntList }
func (DoubleList) kernelType() schema.KernelTypes { return schema.KernelTypesDoubleList }
func (BoolList) kernelType() schema.KernelTypes   { return schema.KernelTypesBoolList }
func (TensorList) kernelType() schema.KernelTypes { return schema.KernelTypesTensorList }
func (OptionalTensorList) kernelType() schema.KernelTypes {
	return schema.KernelTypesOptionalTensorList
}

// Tensor is a tensor value's metadata. Where its data lives follows from DataBufferIdx,
// AllocationInfo and ExtraTensorInfo (see File.TensorData).
type Tensor struct {
	ScalarType      schema.ScalarType
	StorageOffset   int32
	Sizes           []int32 // upper bounds when ShapeDynamism is DYNAMIC_BOUND
	DimOrder        []uint8
	RequiresGrad    bool
	DataBufferIdx   uint32
	AllocationInfo  *AllocationDetails
	Layout          int8
	ShapeDynamism   schema.TensorShapeDynamism
	ExtraTensorInfo *ExtraTensorInfo
}

// AllocationDetails places a tensor in planned memory. MemoryID is 1-based.
type AllocationDetails struct {
	MemoryID         uint32
	MemoryOffsetLow  uint32
	MemoryOffsetHigh uint32
}

// Offset is the byte offset inside the planned buffer.
func (a *AllocationDetails) Offset() uint64 {
	return uint64(a.MemoryOffsetLow) | uint64(a.MemoryOffsetHigh)<<32
}

// ExtraTensorInfo carries external-data and device placement.
type ExtraTensorInfo struct {
	MutableDataSegmentsIdx uint64
	FullyQualifiedName     string // written only when non-empty
	Location               schema.TensorDataLocation
	DeviceType             schema.DeviceType
	DeviceIndex            int8
}

// Operator names a kernel: Name "aten::add", Overload "out" ("" for the default overload).
type Operator struct{ Name, Overload string }

// KernelName is the registry key: name, plus "." and the overload when it is not empty.
func (o Operator) KernelName() string {
	if o.Overload == "" {
		return o.Name
	}
	return o.Name + "." + o.Overload
}

// Chain is a sequence of instructions.
type Chain struct {
	Inputs       []int32
	Outputs      []int32
	Instructions []Instruction
	Stacktrace   []FrameList // optional
}

// Instruction is one of KernelCall, DelegateCall, MoveCall, JumpFalseCall or FreeCall. A nil
// Instruction is the union's NONE, which validation refuses.
type Instruction interface {
	instrType() schema.InstructionArguments
}

type (
	// KernelCall runs Operators[OpIndex] on values Args (every schema argument, then the return).
	KernelCall struct {
		OpIndex int32
		Args    []int32
	}
	// DelegateCall runs Delegates[DelegateIndex] on values Args (inputs, then outputs).
	DelegateCall struct {
		DelegateIndex int32
		Args          []int32
	}
	// MoveCall sets values[MoveTo] = values[MoveFrom].
	MoveCall struct{ MoveFrom, MoveTo int32 }
	// JumpFalseCall jumps to DestinationInstruction when CondValueIndex is false.
	JumpFalseCall struct{ CondValueIndex, DestinationInstruction int32 }
	// FreeCall releases the data of tensor ValueIndex.
	FreeCall struct{ ValueIndex int32 }
)

func (KernelCall) instrType() schema.InstructionArguments {
	return schema.InstructionArgumentsKernelCall
}
func (DelegateCall) instrType() schema.InstructionArguments {
	return schema.InstructionArgumentsDelegateCall
}
func (MoveCall) instrType() schema.InstructionArguments { return schema.InstructionArgumentsMoveCall }
func (JumpFalseCall) instrType() schema.InstructionArguments {
	return schema.InstructionArgumentsJumpFalseCall
}
func (FreeCall) instrType() schema.InstructionArguments { return schema.InstructionArgumentsFreeCall }

// FrameList is the stack trace of one instruction.
type FrameList struct{ Items []Frame }

// Frame is one stack frame.
type Frame struct {
	Filename string
	Lineno   int32
	Name     string
	Context  string
}

// BackendDelegate is one delegate: the backend that runs it, where its blob is, and its specs.
type BackendDelegate struct {
	ID           string
	Processed    *DataReference
	CompileSpecs []CompileSpec
}

// DataReference locates a delegate blob: Index into Program.BackendDelegateData (INLINE) or
// Program.Segments (SEGMENT).
type DataReference struct {
	Location schema.DataLocation
	Index    uint32
}

// CompileSpec is one backend compile option.
type CompileSpec struct {
	Key   string
	Value []byte
}
