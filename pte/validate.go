package pte

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/etgo/etgo/pte/schema"
)

const (
	locationInline   = schema.DataLocationINLINE
	locationSegment  = schema.DataLocationSEGMENT
	locationExternal = schema.TensorDataLocationEXTERNAL

	// MaxRank is ExecuTorch's kTensorDimensionLimit.
	MaxRank = 16
	// maxTensorBytes bounds any tensor's size so that offset arithmetic cannot overflow.
	maxTensorBytes = 1 << 48
)

// The complex scalar types. ExecuTorch's scalar_type.fbs lists them only in a comment, but its
// emitter writes c10's codes for complex tensors (the FFT operators' results, to(torch.cfloat))
// and its runtime loads them (its optimized kernels include _fft_r2c and _fft_c2r), so a
// verifying reader must know their sizes.
const (
	ScalarTypeComplexHalf   schema.ScalarType = 8
	ScalarTypeComplexFloat  schema.ScalarType = 9
	ScalarTypeComplexDouble schema.ScalarType = 10
)

// IsComplex reports a complex scalar type.
func IsComplex(t schema.ScalarType) bool {
	return t == ScalarTypeComplexHalf || t == ScalarTypeComplexFloat || t == ScalarTypeComplexDouble
}

// ElementSize returns the bytes of one element of a scalar type, and false for types the
// runtime does not know.
func ElementSize(t schema.ScalarType) (int, bool) {
	switch t {
	case ScalarTypeComplexHalf:
		return 4, true
	case ScalarTypeComplexFloat:
		return 8, true
	case ScalarTypeComplexDouble:
		return 16, true
	case schema.ScalarTypeBYTE, schema.ScalarTypeCHAR, schema.ScalarTypeBOOL, schema.ScalarTypeQINT8,
		schema.ScalarTypeQUINT8, schema.ScalarTypeQUINT4X2, schema.ScalarTypeQUINT2X4,
		schema.ScalarTypeFLOAT8E5M2, schema.ScalarTypeFLOAT8E4M3FN, schema.ScalarTypeFLOAT8E5M2FNUZ,
		schema.ScalarTypeFLOAT8E4M3FNUZ:
		return 1, true
	case schema.ScalarTypeSHORT, schema.ScalarTypeHALF, schema.ScalarTypeBFLOAT16, schema.ScalarTypeBITS16,
		schema.ScalarTypeUINT16:
		return 2, true
	case schema.ScalarTypeINT, schema.ScalarTypeFLOAT, schema.ScalarTypeQINT32, schema.ScalarTypeUINT32:
		return 4, true
	case schema.ScalarTypeLONG, schema.ScalarTypeDOUBLE, schema.ScalarTypeUINT64:
		return 8, true
	}
	return 0, false
}

// NumElements is the product of the sizes (the upper bounds for dynamic tensors).
func (t *Tensor) NumElements() (uint64, error) {
	n := uint64(1)
	for i, d := range t.Sizes {
		if d < 0 {
			return 0, fmt.Errorf("%w: dimension %d is negative (%d)", ErrInvalidProgram, i, d)
		}
		hi, lo := bits.Mul64(n, uint64(d))
		if hi != 0 || lo > maxTensorBytes {
			return 0, fmt.Errorf("%w: sizes %v are too large", ErrInvalidProgram, t.Sizes)
		}
		n = lo
	}
	return n, nil
}

// NBytes is the tensor's size in bytes at its (upper-bound) sizes.
func (t *Tensor) NBytes() (uint64, error) {
	es, ok := ElementSize(t.ScalarType)
	if !ok {
		return 0, fmt.Errorf("%w: unknown scalar type %d", ErrInvalidProgram, t.ScalarType)
	}
	n, err := t.NumElements()
	if err != nil {
		return 0, err
	}
	if n*uint64(es) > maxTensorBytes {
		return 0, fmt.Errorf("%w: sizes %v of %s are too large", ErrInvalidProgram, t.Sizes, t.ScalarType)
	}
	return n * uint64(es), nil
}

// validate checks every cross-reference of a decoded program, so that users of a File can index
// without checking: value, operator, delegate, segment and buffer indices, tensor shapes, and the
// placement of every tensor's data.
func validate(f *File) error {
	p := f.Program
	if p.ConstantSegment != nil && len(p.ConstantSegment.Offsets) > 1 {
		if len(p.ConstantBuffer) > 0 {
			return invalid("program has both a constant segment (%d entries) and %d inline constant buffers", len(p.ConstantSegment.Offsets), len(p.ConstantBuffer))
		}
		if err := checkSubsegment(f, *p.ConstantSegment, "constant_segment"); err != nil {
			return err
		}
	}
	for i, s := range p.MutableDataSegments {
		if err := checkSubsegment(f, s, fmt.Sprintf("mutable_data_segments[%d]", i)); err != nil {
			return err
		}
	}
	keys := map[string]bool{}
	for i, nd := range p.NamedData {
		if int(nd.SegmentIndex) >= len(p.Segments) {
			return invalid("named_data[%d] %q: segment %d out of range (the program has %d)", i, nd.Key, nd.SegmentIndex, len(p.Segments))
		}
		if keys[nd.Key] {
			return invalid("named_data[%d]: key %q appears twice", i, nd.Key)
		}
		keys[nd.Key] = true
	}
	names := map[string]bool{}
	for i, plan := range p.ExecutionPlans {
		if names[plan.Name] {
			return invalid("execution plan %d: method name %q appears twice", i, plan.Name)
		}
		names[plan.Name] = true
		if err := validatePlan(f, plan); err != nil {
			return fmt.Errorf("%w: plan %d %q: %v", ErrInvalidProgram, i, plan.Name, err)
		}
	}
	return nil
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidProgram, fmt.Sprintf(format, args...))
}

func checkSubsegment(f *File, s SubsegmentOffsets, what string) error {
	seg, err := f.Segment(int(s.SegmentIndex))
	if err != nil {
		return invalid("%s: %v", what, err)
	}
	for k, off := range s.Offsets {
		if off > uint64(len(seg)) {
			return invalid("%s: offset %d is %d, past its segment's %d bytes", what, k, off, len(seg))
		}
	}
	return nil
}

func validatePlan(f *File, plan *ExecutionPlan) error {
	nv := len(plan.Values)
	value := func(i int64) bool { return i >= 0 && i < int64(nv) }
	if len(plan.NonConstBufferSizes) == 0 {
		return fmt.Errorf("non_const_buffer_sizes is empty (entry 0 is reserved and must exist)")
	}
	for i, s := range plan.NonConstBufferSizes {
		if s < 0 {
			return fmt.Errorf("non_const_buffer_sizes[%d] is negative (%d)", i, s)
		}
	}
	for i, d := range plan.NonConstBufferDevice {
		if d.BufferIdx < 1 || int(d.BufferIdx) >= len(plan.NonConstBufferSizes) {
			return fmt.Errorf("non_const_buffer_device[%d]: buffer %d out of range [1, %d)", i, d.BufferIdx, len(plan.NonConstBufferSizes))
		}
	}
	for i, v := range plan.Values {
		if err := validateValue(f, plan, v); err != nil {
			return fmt.Errorf("value %d: %v", i, err)
		}
	}
	for _, io := range []struct {
		name string
		idx  []int32
	}{{"input", plan.Inputs}, {"output", plan.Outputs}} {
		for i, v := range io.idx {
			if !value(int64(v)) {
				return fmt.Errorf("%s %d: value %d out of range (the plan has %d)", io.name, i, v, nv)
			}
		}
	}
	for i, op := range plan.Operators {
		if op.Name == "" {
			return fmt.Errorf("operator %d has an empty name", i)
		}
	}
	for i, d := range plan.Delegates {
		if err := validateDelegate(f, d); err != nil {
			return fmt.Errorf("delegate %d %q: %v", i, d.ID, err)
		}
	}
	if len(plan.Chains) == 0 {
		return fmt.Errorf("no chains")
	}
	for c, chain := range plan.Chains {
		for _, io := range [][]int32{chain.Inputs, chain.Outputs} {
			for _, v := range io {
				if !value(int64(v)) {
					return fmt.Errorf("chain %d: value %d out of range (the plan has %d)", c, v, nv)
				}
			}
		}
		for i, in := range chain.Instructions {
			if err := validateInstruction(plan, chain, in, value); err != nil {
				return fmt.Errorf("chain %d instruction %d: %v", c, i, err)
			}
		}
	}
	return nil
}

func validateDelegate(f *File, d BackendDelegate) error {
	if d.ID == "" {
		return fmt.Errorf("empty backend id")
	}
	if d.Processed == nil {
		return fmt.Errorf("no processed data reference")
	}
	switch d.Processed.Location {
	case locationInline:
		if int(d.Processed.Index) >= len(f.Program.BackendDelegateData) {
			return fmt.Errorf("inline data %d out of range (the program has %d)", d.Processed.Index, len(f.Program.BackendDelegateData))
		}
	case locationSegment:
		if int(d.Processed.Index) >= len(f.Program.Segments) {
			return fmt.Errorf("segment %d out of range (the program has %d)", d.Processed.Index, len(f.Program.Segments))
		}
	default:
		return fmt.Errorf("unknown data location %d", d.Processed.Location)
	}
	return nil
}

func validateInstruction(plan *ExecutionPlan, chain Chain, in Instruction, value func(int64) bool) error {
	args := func(a []int32) error {
		for k, v := range a {
			if !value(int64(v)) {
				return fmt.Errorf("argument %d: value %d out of range (the plan has %d)", k, v, len(plan.Values))
			}
		}
		return nil
	}
	switch in := in.(type) {
	case nil:
		return fmt.Errorf("instruction has no arguments (union NONE)")
	case KernelCall:
		if in.OpIndex < 0 || int(in.OpIndex) >= len(plan.Operators) {
			return fmt.Errorf("kernel call: operator %d out of range (the plan has %d)", in.OpIndex, len(plan.Operators))
		}
		return args(in.Args)
	case DelegateCall:
		if in.DelegateIndex < 0 || int(in.DelegateIndex) >= len(plan.Delegates) {
			return fmt.Errorf("delegate call: delegate %d out of range (the plan has %d)", in.DelegateIndex, len(plan.Delegates))
		}
		return args(in.Args)
	case MoveCall:
		return args([]int32{in.MoveFrom, in.MoveTo})
	case FreeCall:
		return args([]int32{in.ValueIndex})
	case JumpFalseCall:
		if d := in.DestinationInstruction; d < 0 || int(d) > len(chain.Instructions) {
			return fmt.Errorf("jump destination %d out of range [0, %d]", d, len(chain.Instructions))
		}
		return args([]int32{in.CondValueIndex})
	}
	return fmt.Errorf("unknown instruction %T", in)
}

func validateValue(f *File, plan *ExecutionPlan, v EValue) error {
	inRange := func(i int64) bool { return i >= 0 && i < int64(len(plan.Values)) }
	switch v := v.(type) {
	case nil:
		return fmt.Errorf("value has no type (union NONE)")
	case *Tensor:
		return validateTensor(f, plan, v)
	case IntList:
		for k, i := range v.Items {
			if !inRange(i) {
				return fmt.Errorf("int list item %d: value %d out of range", k, i)
			}
			if _, ok := plan.Values[i].(Int); !ok {
				return fmt.Errorf("int list item %d: value %d is %s, not Int", k, i, typeName(plan.Values[i]))
			}
		}
	case TensorList:
		for k, i := range v.Items {
			if !inRange(int64(i)) {
				return fmt.Errorf("tensor list item %d: value %d out of range", k, i)
			}
			if _, ok := plan.Values[i].(*Tensor); !ok {
				return fmt.Errorf("tensor list item %d: value %d is %s, not Tensor", k, i, typeName(plan.Values[i]))
			}
		}
	case OptionalTensorList:
		for k, i := range v.Items {
			if i == -1 {
				continue
			}
			if !inRange(int64(i)) {
				return fmt.Errorf("optional tensor list item %d: value %d out of range", k, i)
			}
			switch plan.Values[i].(type) {
			case *Tensor, Null:
			default:
				return fmt.Errorf("optional tensor list item %d: value %d is %s, not Tensor or Null", k, i, typeName(plan.Values[i]))
			}
		}
	}
	return nil
}

// typeName names an EValue's union member for messages.
func typeName(v EValue) string {
	if v == nil {
		return "NONE"
	}
	return v.kernelType().String()
}

func validateTensor(f *File, plan *ExecutionPlan, t *Tensor) error {
	if t.Sizes == nil || t.DimOrder == nil {
		return fmt.Errorf("tensor without sizes or dim_order")
	}
	if len(t.Sizes) > MaxRank {
		return fmt.Errorf("tensor rank %d exceeds %d", len(t.Sizes), MaxRank)
	}
	if len(t.DimOrder) != len(t.Sizes) {
		return fmt.Errorf("tensor has %d sizes but %d dim_order entries", len(t.Sizes), len(t.DimOrder))
	}
	var seen uint32
	for _, d := range t.DimOrder {
		if int(d) >= len(t.Sizes) || seen&(1<<d) != 0 {
			return fmt.Errorf("tensor dim_order %v is not a permutation of 0..%d", t.DimOrder, len(t.Sizes)-1)
		}
		seen |= 1 << d
	}
	if t.StorageOffset != 0 {
		return fmt.Errorf("tensor storage_offset %d is not 0", t.StorageOffset)
	}
	if t.ShapeDynamism > schema.TensorShapeDynamismDYNAMIC_UNBOUND {
		return fmt.Errorf("tensor shape_dynamism %d is unknown", t.ShapeDynamism)
	}
	nbytes, err := t.NBytes()
	if err != nil {
		return fmt.Errorf("tensor: %v", err)
	}
	if e := t.ExtraTensorInfo; e != nil {
		if e.Location > locationExternal {
			return fmt.Errorf("tensor data location %d is unknown", e.Location)
		}
		if e.Location == locationExternal && e.FullyQualifiedName == "" {
			return fmt.Errorf("external tensor without a fully qualified name")
		}
	}
	if a := t.AllocationInfo; a != nil {
		if a.MemoryID < 1 || int(a.MemoryID) >= len(plan.NonConstBufferSizes) {
			return fmt.Errorf("tensor memory_id %d out of range [1, %d)", a.MemoryID, len(plan.NonConstBufferSizes))
		}
		size := uint64(plan.NonConstBufferSizes[a.MemoryID])
		if off := a.Offset(); off > size || nbytes > size-off {
			return fmt.Errorf("tensor of %d bytes at offset %d runs past planned buffer %d (%d bytes)", nbytes, off, a.MemoryID, size)
		}
	}
	if _, err := f.TensorData(t); err != nil && !isExternal(err) {
		return fmt.Errorf("tensor data: %v", err)
	}
	return nil
}

func isExternal(err error) bool { return errors.Is(err, ErrExternalData) }

var dtypeNames = map[schema.ScalarType]string{
	schema.ScalarTypeBYTE: "uint8", schema.ScalarTypeCHAR: "int8", schema.ScalarTypeSHORT: "int16",
	schema.ScalarTypeINT: "int32", schema.ScalarTypeLONG: "int64", schema.ScalarTypeHALF: "float16",
	schema.ScalarTypeFLOAT: "float32", schema.ScalarTypeDOUBLE: "float64", schema.ScalarTypeBOOL: "bool",
	schema.ScalarTypeQINT8: "qint8", schema.ScalarTypeQUINT8: "quint8", schema.ScalarTypeQINT32: "qint32",
	schema.ScalarTypeBFLOAT16: "bfloat16", schema.ScalarTypeQUINT4X2: "quint4x2", schema.ScalarTypeQUINT2X4: "quint2x4",
	schema.ScalarTypeBITS16: "bits16", schema.ScalarTypeFLOAT8E5M2: "float8_e5m2", schema.ScalarTypeFLOAT8E4M3FN: "float8_e4m3fn",
	schema.ScalarTypeFLOAT8E5M2FNUZ: "float8_e5m2fnuz", schema.ScalarTypeFLOAT8E4M3FNUZ: "float8_e4m3fnuz",
	schema.ScalarTypeUINT16: "uint16", schema.ScalarTypeUINT32: "uint32", schema.ScalarTypeUINT64: "uint64",
	ScalarTypeComplexHalf: "complex32", ScalarTypeComplexFloat: "complex64", ScalarTypeComplexDouble: "complex128",
}

// DTypeName is torch's name for a scalar type ("float32", "int64", "bool", ...).
func DTypeName(t schema.ScalarType) string {
	if n, ok := dtypeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("scalar_type(%d)", t)
}
