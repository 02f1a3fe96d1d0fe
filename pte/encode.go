package pte

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/pte/schema"
)

// encodeProgram builds the flatbuffer of p (identifier ET12, no extended header). It makes the
// builder calls ExecuTorch's serializer makes (flatbuffers' Python object API): in every table,
// children in field order, then the fields in slot order; a table's elements of a vector of
// tables in index order; nil optional fields omitted; scalars equal to their default omitted.
// The same algorithm on the same program gives the same bytes.
//
// bufferAlign and delegateAlign are the force_align of Buffer.storage and
// BackendDelegateInlineData.data (16 unless the caller changes them, as ExecuTorch allows).
func encodeProgram(p *Program, bufferAlign, delegateAlign int) []byte {
	e := &encoder{b: flatbuffers.NewBuilder(1 << 16), bufferAlign: bufferAlign, delegateAlign: delegateAlign}
	root := e.program(p)
	e.b.FinishWithFileIdentifier(root, []byte(FileIdentifier))
	return e.b.FinishedBytes()
}

type encoder struct {
	b                          *flatbuffers.Builder
	bufferAlign, delegateAlign int
}

type off = flatbuffers.UOffsetT

// tables writes a vector of table offsets made by pack, elements packed in index order.
func tables[T any](e *encoder, items []T, pack func(*T) off) off {
	offs := make([]off, len(items))
	for i := range items {
		offs[i] = pack(&items[i])
	}
	e.b.StartVector(4, len(offs), 4)
	for i := len(offs) - 1; i >= 0; i-- {
		e.b.PrependUOffsetT(offs[i])
	}
	return e.b.EndVector(len(offs))
}

func (e *encoder) int32s(v []int32) off {
	e.b.StartVector(4, len(v), 4)
	for i := len(v) - 1; i >= 0; i-- {
		e.b.PrependInt32(v[i])
	}
	return e.b.EndVector(len(v))
}

func (e *encoder) int64s(v []int64) off {
	e.b.StartVector(8, len(v), 8)
	for i := len(v) - 1; i >= 0; i-- {
		e.b.PrependInt64(v[i])
	}
	return e.b.EndVector(len(v))
}

func (e *encoder) uint64s(v []uint64) off {
	e.b.StartVector(8, len(v), 8)
	for i := len(v) - 1; i >= 0; i-- {
		e.b.PrependUint64(v[i])
	}
	return e.b.EndVector(len(v))
}

// alignedBytes writes a [ubyte] vector whose first byte is align-aligned, as ExecuTorch does for
// the force_align fields (Buffer.storage, BackendDelegateInlineData.data).
func (e *encoder) alignedBytes(data []byte, align int) off {
	e.b.StartVector(1, len(data), align) // reserves the room, so PlaceByte needs no Prep
	for i := len(data) - 1; i >= 0; i-- {
		e.b.PlaceByte(data[i])
	}
	return e.b.EndVector(len(data))
}

func (e *encoder) program(p *Program) off {
	b := e.b
	plans := tables(e, p.ExecutionPlans, func(x **ExecutionPlan) off { return e.plan(*x) })
	constBuf := tables(e, p.ConstantBuffer, func(x *Buffer) off {
		s := e.alignedBytes(x.Storage, e.bufferAlign)
		schema.BufferStart(b)
		schema.BufferAddStorage(b, s)
		return schema.BufferEnd(b)
	})
	inline := tables(e, p.BackendDelegateData, func(x *InlineData) off {
		d := e.alignedBytes(x.Data, e.delegateAlign)
		schema.BackendDelegateInlineDataStart(b)
		schema.BackendDelegateInlineDataAddData(b, d)
		return schema.BackendDelegateInlineDataEnd(b)
	})
	segs := tables(e, p.Segments, func(x *DataSegment) off {
		schema.DataSegmentStart(b)
		schema.DataSegmentAddOffset(b, x.Offset)
		schema.DataSegmentAddSize(b, x.Size)
		return schema.DataSegmentEnd(b)
	})
	var constSeg, mutable, named off
	if p.ConstantSegment != nil {
		constSeg = e.subsegment(p.ConstantSegment)
	}
	if p.MutableDataSegments != nil {
		mutable = tables(e, p.MutableDataSegments, e.subsegment)
	}
	if p.NamedData != nil {
		named = tables(e, p.NamedData, func(x *NamedData) off {
			k := b.CreateString(x.Key)
			schema.NamedDataStart(b)
			schema.NamedDataAddKey(b, k)
			schema.NamedDataAddSegmentIndex(b, x.SegmentIndex)
			return schema.NamedDataEnd(b)
		})
	}
	schema.ProgramStart(b)
	schema.ProgramAddVersion(b, p.Version)
	schema.ProgramAddExecutionPlan(b, plans)
	schema.ProgramAddConstantBuffer(b, constBuf)
	schema.ProgramAddBackendDelegateData(b, inline)
	schema.ProgramAddSegments(b, segs)
	if constSeg != 0 {
		schema.ProgramAddConstantSegment(b, constSeg)
	}
	if mutable != 0 {
		schema.ProgramAddMutableDataSegments(b, mutable)
	}
	if named != 0 {
		schema.ProgramAddNamedData(b, named)
	}
	return schema.ProgramEnd(b)
}

func (e *encoder) subsegment(x *SubsegmentOffsets) off {
	o := e.uint64s(x.Offsets)
	schema.SubsegmentOffsetsStart(e.b)
	schema.SubsegmentOffsetsAddSegmentIndex(e.b, x.SegmentIndex)
	schema.SubsegmentOffsetsAddOffsets(e.b, o)
	return schema.SubsegmentOffsetsEnd(e.b)
}

func (e *encoder) plan(p *ExecutionPlan) off {
	b := e.b
	name := b.CreateString(p.Name)
	var meta off
	if m := p.ContainerMetaType; m != nil {
		in, out := b.CreateString(m.EncodedInpStr), b.CreateString(m.EncodedOutStr)
		schema.ContainerMetadataStart(b)
		schema.ContainerMetadataAddEncodedInpStr(b, in)
		schema.ContainerMetadataAddEncodedOutStr(b, out)
		meta = schema.ContainerMetadataEnd(b)
	}
	values := tables(e, p.Values, func(v *EValue) off { return e.evalue(*v) })
	inputs, outputs := e.int32s(p.Inputs), e.int32s(p.Outputs)
	chains := tables(e, p.Chains, e.chain)
	ops := tables(e, p.Operators, func(o *Operator) off {
		n, ov := b.CreateString(o.Name), b.CreateString(o.Overload)
		schema.OperatorStart(b)
		schema.OperatorAddName(b, n)
		schema.OperatorAddOverload(b, ov)
		return schema.OperatorEnd(b)
	})
	delegates := tables(e, p.Delegates, e.delegate)
	bufSizes := e.int64s(p.NonConstBufferSizes)
	var devices off
	if p.NonConstBufferDevice != nil {
		devices = tables(e, p.NonConstBufferDevice, func(d *NonConstBufferDevice) off {
			schema.NonConstBufferDeviceStart(b)
			schema.NonConstBufferDeviceAddBufferIdx(b, d.BufferIdx)
			schema.NonConstBufferDeviceAddDeviceType(b, d.DeviceType)
			schema.NonConstBufferDeviceAddDeviceIndex(b, d.DeviceIndex)
			return schema.NonConstBufferDeviceEnd(b)
		})
	}
	schema.ExecutionPlanStart(b)
	schema.ExecutionPlanAddName(b, name)
	if meta != 0 {
		schema.ExecutionPlanAddContainerMetaType(b, meta)
	}
	schema.ExecutionPlanAddValues(b, values)
	schema.ExecutionPlanAddInputs(b, inputs)
	schema.ExecutionPlanAddOutputs(b, outputs)
	schema.ExecutionPlanAddChains(b, chains)
	schema.ExecutionPlanAddOperators(b, ops)
	schema.ExecutionPlanAddDelegates(b, delegates)
	schema.ExecutionPlanAddNonConstBufferSizes(b, bufSizes)
	if devices != 0 {
		schema.ExecutionPlanAddNonConstBufferDevice(b, devices)
	}
	return schema.ExecutionPlanEnd(b)
}

func (e *encoder) evalue(v EValue) off {
	b := e.b
	var val off
	switch v := v.(type) {
	case Null:
		schema.NullStart(b)
		val = schema.NullEnd(b)
	case Int:
		schema.IntStart(b)
		schema.IntAddIntVal(b, v.Val)
		val = schema.IntEnd(b)
	case Bool:
		schema.BoolStart(b)
		schema.BoolAddBoolVal(b, v.Val)
		val = schema.BoolEnd(b)
	case Double:
		schema.DoubleStart(b)
		schema.DoubleAddDoubleVal(b, v.Val)
		val = schema.DoubleEnd(b)
	case String:
		s := b.CreateString(v.Val)
		schema.StringStart(b)
		schema.StringAddStringVal(b, s)
		val = schema.StringEnd(b)
	case *Tensor:
		val = e.tensor(v)
	case IntList:
		items := e.int64s(v.Items)
		schema.IntListStart(b)
		schema.IntListAddItems(b, items)
		val = schema.IntListEnd(b)
	case DoubleList:
		b.StartVector(8, len(v.Items), 8)
		for i := len(v.Items) - 1; i >= 0; i-- {
			b.PrependFloat64(v.Items[i])
		}
		items := b.EndVector(len(v.Items))
		schema.DoubleListStart(b)
		schema.DoubleListAddItems(b, items)
		val = schema.DoubleListEnd(b)
	case BoolList:
		b.StartVector(1, len(v.Items), 1)
		for i := len(v.Items) - 1; i >= 0; i-- {
			b.PrependBool(v.Items[i])
		}
		items := b.EndVector(len(v.Items))
		schema.BoolListStart(b)
		schema.BoolListAddItems(b, items)
		val = schema.BoolListEnd(b)
	case TensorList:
		items := e.int32s(v.Items)
		schema.TensorListStart(b)
		schema.TensorListAddItems(b, items)
		val = schema.TensorListEnd(b)
	case OptionalTensorList:
		items := e.int32s(v.Items)
		schema.OptionalTensorListStart(b)
		schema.OptionalTensorListAddItems(b, items)
		val = schema.OptionalTensorListEnd(b)
	case nil: // the union's NONE: no value
	default: // a member this encoder does not know (tests of bad files), written as an empty table
		schema.NullStart(b)
		val = schema.NullEnd(b)
	}
	schema.EValueStart(b)
	if v != nil {
		schema.EValueAddValType(b, v.kernelType())
		schema.EValueAddVal(b, val)
	}
	return schema.EValueEnd(b)
}

func (e *encoder) tensor(t *Tensor) off {
	b := e.b
	sizes := e.int32s(t.Sizes)
	dimOrder := b.CreateByteVector(t.DimOrder)
	var alloc, extra off
	if a := t.AllocationInfo; a != nil {
		schema.AllocationDetailsStart(b)
		schema.AllocationDetailsAddMemoryId(b, a.MemoryID)
		schema.AllocationDetailsAddMemoryOffsetLow(b, a.MemoryOffsetLow)
		schema.AllocationDetailsAddMemoryOffsetHigh(b, a.MemoryOffsetHigh)
		alloc = schema.AllocationDetailsEnd(b)
	}
	if x := t.ExtraTensorInfo; x != nil {
		var fqn off
		if x.FullyQualifiedName != "" {
			fqn = b.CreateString(x.FullyQualifiedName)
		}
		schema.ExtraTensorInfoStart(b)
		schema.ExtraTensorInfoAddMutableDataSegmentsIdx(b, x.MutableDataSegmentsIdx)
		if fqn != 0 {
			schema.ExtraTensorInfoAddFullyQualifiedName(b, fqn)
		}
		schema.ExtraTensorInfoAddLocation(b, x.Location)
		schema.ExtraTensorInfoAddDeviceType(b, x.DeviceType)
		schema.ExtraTensorInfoAddDeviceIndex(b, x.DeviceIndex)
		extra = schema.ExtraTensorInfoEnd(b)
	}
	schema.TensorStart(b)
	schema.TensorAddScalarType(b, t.ScalarType)
	schema.TensorAddStorageOffset(b, t.StorageOffset)
	schema.TensorAddSizes(b, sizes)
	schema.TensorAddDimOrder(b, dimOrder)
	schema.TensorAddRequiresGrad(b, t.RequiresGrad)
	schema.TensorAddDataBufferIdx(b, t.DataBufferIdx)
	if alloc != 0 {
		schema.TensorAddAllocationInfo(b, alloc)
	}
	schema.TensorAddLayout(b, t.Layout)
	schema.TensorAddShapeDynamism(b, t.ShapeDynamism)
	if extra != 0 {
		schema.TensorAddExtraTensorInfo(b, extra)
	}
	return schema.TensorEnd(b)
}

func (e *encoder) chain(c *Chain) off {
	b := e.b
	inputs, outputs := e.int32s(c.Inputs), e.int32s(c.Outputs)
	instrs := tables(e, c.Instructions, func(in *Instruction) off { return e.instruction(*in) })
	var stack off
	if c.Stacktrace != nil {
		stack = tables(e, c.Stacktrace, func(fl *FrameList) off {
			items := tables(e, fl.Items, func(f *Frame) off {
				fn, n, ctx := b.CreateString(f.Filename), b.CreateString(f.Name), b.CreateString(f.Context)
				schema.FrameStart(b)
				schema.FrameAddFilename(b, fn)
				schema.FrameAddLineno(b, f.Lineno)
				schema.FrameAddName(b, n)
				schema.FrameAddContext(b, ctx)
				return schema.FrameEnd(b)
			})
			schema.FrameListStart(b)
			schema.FrameListAddItems(b, items)
			return schema.FrameListEnd(b)
		})
	}
	schema.ChainStart(b)
	schema.ChainAddInputs(b, inputs)
	schema.ChainAddOutputs(b, outputs)
	schema.ChainAddInstructions(b, instrs)
	if stack != 0 {
		schema.ChainAddStacktrace(b, stack)
	}
	return schema.ChainEnd(b)
}

func (e *encoder) instruction(in Instruction) off {
	b := e.b
	var args off
	switch in := in.(type) {
	case KernelCall:
		a := e.int32s(in.Args)
		schema.KernelCallStart(b)
		schema.KernelCallAddOpIndex(b, in.OpIndex)
		schema.KernelCallAddArgs(b, a)
		args = schema.KernelCallEnd(b)
	case DelegateCall:
		a := e.int32s(in.Args)
		schema.DelegateCallStart(b)
		schema.DelegateCallAddDelegateIndex(b, in.DelegateIndex)
		schema.DelegateCallAddArgs(b, a)
		args = schema.DelegateCallEnd(b)
	case MoveCall:
		schema.MoveCallStart(b)
		schema.MoveCallAddMoveFrom(b, in.MoveFrom)
		schema.MoveCallAddMoveTo(b, in.MoveTo)
		args = schema.MoveCallEnd(b)
	case JumpFalseCall:
		schema.JumpFalseCallStart(b)
		schema.JumpFalseCallAddCondValueIndex(b, in.CondValueIndex)
		schema.JumpFalseCallAddDestinationInstruction(b, in.DestinationInstruction)
		args = schema.JumpFalseCallEnd(b)
	case FreeCall:
		schema.FreeCallStart(b)
		schema.FreeCallAddValueIndex(b, in.ValueIndex)
		args = schema.FreeCallEnd(b)
	case nil: // the union's NONE: no value
	default: // a member this encoder does not know (tests of bad files), written as an empty table
		schema.FreeCallStart(b)
		args = schema.FreeCallEnd(b)
	}
	schema.InstructionStart(b)
	if in != nil {
		schema.InstructionAddInstrArgsType(b, in.instrType())
		schema.InstructionAddInstrArgs(b, args)
	}
	return schema.InstructionEnd(b)
}

func (e *encoder) delegate(d *BackendDelegate) off {
	b := e.b
	id := b.CreateString(d.ID)
	var processed off
	if r := d.Processed; r != nil {
		schema.BackendDelegateDataReferenceStart(b)
		schema.BackendDelegateDataReferenceAddLocation(b, r.Location)
		schema.BackendDelegateDataReferenceAddIndex(b, r.Index)
		processed = schema.BackendDelegateDataReferenceEnd(b)
	}
	specs := tables(e, d.CompileSpecs, func(cs *CompileSpec) off {
		k := b.CreateString(cs.Key)
		v := b.CreateByteVector(cs.Value)
		schema.CompileSpecStart(b)
		schema.CompileSpecAddKey(b, k)
		schema.CompileSpecAddValue(b, v)
		return schema.CompileSpecEnd(b)
	})
	schema.BackendDelegateStart(b)
	schema.BackendDelegateAddId(b, id)
	if processed != 0 {
		schema.BackendDelegateAddProcessed(b, processed)
	}
	schema.BackendDelegateAddCompileSpecs(b, specs)
	return schema.BackendDelegateEnd(b)
}
