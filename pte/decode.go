package pte

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/pte/schema"
)

// decodeProgram turns a flatbuffer that verifyRoot accepted into a Program. It must only ever see
// verified buffers: the generated accessors do not check bounds.
func decodeProgram(buf []byte) *Program {
	fp := schema.GetRootAsProgram(buf, 0)
	t := fp.Table()
	p := &Program{Version: fp.Version()}
	if has(t, 1) {
		p.ExecutionPlans = make([]*ExecutionPlan, fp.ExecutionPlanLength())
		var x schema.ExecutionPlan
		for i := range p.ExecutionPlans {
			fp.ExecutionPlan(&x, i)
			p.ExecutionPlans[i] = decodePlan(&x)
		}
	}
	if has(t, 2) {
		p.ConstantBuffer = make([]Buffer, fp.ConstantBufferLength())
		var x schema.Buffer
		for i := range p.ConstantBuffer {
			fp.ConstantBuffer(&x, i)
			p.ConstantBuffer[i] = Buffer{Storage: x.StorageBytes()}
		}
	}
	if has(t, 3) {
		p.BackendDelegateData = make([]InlineData, fp.BackendDelegateDataLength())
		var x schema.BackendDelegateInlineData
		for i := range p.BackendDelegateData {
			fp.BackendDelegateData(&x, i)
			p.BackendDelegateData[i] = InlineData{Data: x.DataBytes()}
		}
	}
	if has(t, 4) {
		p.Segments = make([]DataSegment, fp.SegmentsLength())
		var x schema.DataSegment
		for i := range p.Segments {
			fp.Segments(&x, i)
			p.Segments[i] = DataSegment{Offset: x.Offset(), Size: x.Size()}
		}
	}
	if cs := fp.ConstantSegment(nil); cs != nil {
		s := decodeSubsegment(cs)
		p.ConstantSegment = &s
	}
	if has(t, 6) {
		p.MutableDataSegments = make([]SubsegmentOffsets, fp.MutableDataSegmentsLength())
		var x schema.SubsegmentOffsets
		for i := range p.MutableDataSegments {
			fp.MutableDataSegments(&x, i)
			p.MutableDataSegments[i] = decodeSubsegment(&x)
		}
	}
	if has(t, 7) {
		p.NamedData = make([]NamedData, fp.NamedDataLength())
		var x schema.NamedData
		for i := range p.NamedData {
			fp.NamedData(&x, i)
			p.NamedData[i] = NamedData{Key: string(x.Key()), SegmentIndex: x.SegmentIndex()}
		}
	}
	return p
}

// has reports whether the field in slot is present in table t.
func has(t flatbuffers.Table, slot int) bool {
	return t.Offset(flatbuffers.VOffsetT(4+2*slot)) != 0
}

func decodeSubsegment(x *schema.SubsegmentOffsets) SubsegmentOffsets {
	s := SubsegmentOffsets{SegmentIndex: x.SegmentIndex()}
	if has(x.Table(), 1) {
		s.Offsets = make([]uint64, x.OffsetsLength())
		for i := range s.Offsets {
			s.Offsets[i] = x.Offsets(i)
		}
	}
	return s
}

// ints copies a vector through its element accessor; nil when the field is absent.
func ints[T any](present bool, n int, at func(int) T) []T {
	if !present {
		return nil
	}
	out := make([]T, n)
	for i := range out {
		out[i] = at(i)
	}
	return out
}

func decodePlan(x *schema.ExecutionPlan) *ExecutionPlan {
	t := x.Table()
	p := &ExecutionPlan{Name: string(x.Name())}
	if cm := x.ContainerMetaType(nil); cm != nil {
		p.ContainerMetaType = &ContainerMetadata{EncodedInpStr: string(cm.EncodedInpStr()), EncodedOutStr: string(cm.EncodedOutStr())}
	}
	if has(t, 2) {
		p.Values = make([]EValue, x.ValuesLength())
		var v schema.EValue
		for i := range p.Values {
			x.Values(&v, i)
			p.Values[i] = decodeEValue(&v)
		}
	}
	p.Inputs = ints(has(t, 3), x.InputsLength(), x.Inputs)
	p.Outputs = ints(has(t, 4), x.OutputsLength(), x.Outputs)
	if has(t, 5) {
		p.Chains = make([]Chain, x.ChainsLength())
		var c schema.Chain
		for i := range p.Chains {
			x.Chains(&c, i)
			p.Chains[i] = decodeChain(&c)
		}
	}
	if has(t, 6) {
		p.Operators = make([]Operator, x.OperatorsLength())
		var o schema.Operator
		for i := range p.Operators {
			x.Operators(&o, i)
			p.Operators[i] = Operator{Name: string(o.Name()), Overload: string(o.Overload())}
		}
	}
	if has(t, 7) {
		p.Delegates = make([]BackendDelegate, x.DelegatesLength())
		var d schema.BackendDelegate
		for i := range p.Delegates {
			x.Delegates(&d, i)
			p.Delegates[i] = decodeDelegate(&d)
		}
	}
	p.NonConstBufferSizes = ints(has(t, 8), x.NonConstBufferSizesLength(), x.NonConstBufferSizes)
	if has(t, 9) {
		p.NonConstBufferDevice = make([]NonConstBufferDevice, x.NonConstBufferDeviceLength())
		var d schema.NonConstBufferDevice
		for i := range p.NonConstBufferDevice {
			x.NonConstBufferDevice(&d, i)
			p.NonConstBufferDevice[i] = NonConstBufferDevice{BufferIdx: d.BufferIdx(), DeviceType: d.DeviceType(), DeviceIndex: d.DeviceIndex()}
		}
	}
	return p
}

func decodeEValue(v *schema.EValue) EValue {
	var tab flatbuffers.Table
	if !v.Val(&tab) {
		return nil
	}
	switch v.ValType() {
	case schema.KernelTypesNull:
		return Null{}
	case schema.KernelTypesInt:
		var x schema.Int
		x.Init(tab.Bytes, tab.Pos)
		return Int{Val: x.IntVal()}
	case schema.KernelTypesBool:
		var x schema.Bool
		x.Init(tab.Bytes, tab.Pos)
		return Bool{Val: x.BoolVal()}
	case schema.KernelTypesDouble:
		var x schema.Double
		x.Init(tab.Bytes, tab.Pos)
		return Double{Val: x.DoubleVal()}
	case schema.KernelTypesString:
		var x schema.String
		x.Init(tab.Bytes, tab.Pos)
		return String{Val: string(x.StringVal())}
	case schema.KernelTypesTensor:
		var x schema.Tensor
		x.Init(tab.Bytes, tab.Pos)
		return decodeTensor(&x)
	case schema.KernelTypesIntList:
		var x schema.IntList
		x.Init(tab.Bytes, tab.Pos)
		return IntList{Items: ints(has(x.Table(), 0), x.ItemsLength(), x.Items)}
	case schema.KernelTypesDoubleList:
		var x schema.DoubleList
		x.Init(tab.Bytes, tab.Pos)
		return DoubleList{Items: ints(has(x.Table(), 0), x.ItemsLength(), x.Items)}
	case schema.KernelTypesBoolList:
		var x schema.BoolList
		x.Init(tab.Bytes, tab.Pos)
		return BoolList{Items: ints(has(x.Table(), 0), x.ItemsLength(), x.Items)}
	case schema.KernelTypesTensorList:
		var x schema.TensorList
		x.Init(tab.Bytes, tab.Pos)
		return TensorList{Items: ints(has(x.Table(), 0), x.ItemsLength(), x.Items)}
	case schema.KernelTypesOptionalTensorList:
		var x schema.OptionalTensorList
		x.Init(tab.Bytes, tab.Pos)
		return OptionalTensorList{Items: ints(has(x.Table(), 0), x.ItemsLength(), x.Items)}
	}
	return nil
}

func decodeTensor(x *schema.Tensor) *Tensor {
	t := x.Table()
	out := &Tensor{
		ScalarType:    x.ScalarType(),
		StorageOffset: x.StorageOffset(),
		Sizes:         ints(has(t, 2), x.SizesLength(), x.Sizes),
		RequiresGrad:  x.RequiresGrad(),
		DataBufferIdx: x.DataBufferIdx(),
		Layout:        x.Layout(),
		ShapeDynamism: x.ShapeDynamism(),
	}
	if has(t, 3) {
		out.DimOrder = x.DimOrderBytes()
		if out.DimOrder == nil {
			out.DimOrder = []byte{}
		}
	}
	if a := x.AllocationInfo(nil); a != nil {
		out.AllocationInfo = &AllocationDetails{MemoryID: a.MemoryId(), MemoryOffsetLow: a.MemoryOffsetLow(), MemoryOffsetHigh: a.MemoryOffsetHigh()}
	}
	if e := x.ExtraTensorInfo(nil); e != nil {
		out.ExtraTensorInfo = &ExtraTensorInfo{
			MutableDataSegmentsIdx: e.MutableDataSegmentsIdx(),
			FullyQualifiedName:     string(e.FullyQualifiedName()),
			Location:               e.Location(),
			DeviceType:             e.DeviceType(),
			DeviceIndex:            e.DeviceIndex(),
		}
	}
	return out
}

func decodeChain(x *schema.Chain) Chain {
	t := x.Table()
	c := Chain{
		Inputs:  ints(has(t, 0), x.InputsLength(), x.Inputs),
		Outputs: ints(has(t, 1), x.OutputsLength(), x.Outputs),
	}
	if has(t, 2) {
		c.Instructions = make([]Instruction, x.InstructionsLength())
		var in schema.Instruction
		for i := range c.Instructions {
			x.Instructions(&in, i)
			c.Instructions[i] = decodeInstruction(&in)
		}
	}
	if has(t, 3) {
		c.Stacktrace = make([]FrameList, x.StacktraceLength())
		var fl schema.FrameList
		var f schema.Frame
		for i := range c.Stacktrace {
			x.Stacktrace(&fl, i)
			if has(fl.Table(), 0) {
				c.Stacktrace[i].Items = make([]Frame, fl.ItemsLength())
			}
			for j := range c.Stacktrace[i].Items {
				fl.Items(&f, j)
				c.Stacktrace[i].Items[j] = Frame{Filename: string(f.Filename()), Lineno: f.Lineno(), Name: string(f.Name()), Context: string(f.Context())}
			}
		}
	}
	return c
}

func decodeInstruction(in *schema.Instruction) Instruction {
	var tab flatbuffers.Table
	if !in.InstrArgs(&tab) {
		return nil
	}
	switch in.InstrArgsType() {
	case schema.InstructionArgumentsKernelCall:
		var x schema.KernelCall
		x.Init(tab.Bytes, tab.Pos)
		return KernelCall{OpIndex: x.OpIndex(), Args: ints(has(x.Table(), 1), x.ArgsLength(), x.Args)}
	case schema.InstructionArgumentsDelegateCall:
		var x schema.DelegateCall
		x.Init(tab.Bytes, tab.Pos)
		return DelegateCall{DelegateIndex: x.DelegateIndex(), Args: ints(has(x.Table(), 1), x.ArgsLength(), x.Args)}
	case schema.InstructionArgumentsMoveCall:
		var x schema.MoveCall
		x.Init(tab.Bytes, tab.Pos)
		return MoveCall{MoveFrom: x.MoveFrom(), MoveTo: x.MoveTo()}
	case schema.InstructionArgumentsJumpFalseCall:
		var x schema.JumpFalseCall
		x.Init(tab.Bytes, tab.Pos)
		return JumpFalseCall{CondValueIndex: x.CondValueIndex(), DestinationInstruction: x.DestinationInstruction()}
	case schema.InstructionArgumentsFreeCall:
		var x schema.FreeCall
		x.Init(tab.Bytes, tab.Pos)
		return FreeCall{ValueIndex: x.ValueIndex()}
	}
	return nil
}

func decodeDelegate(x *schema.BackendDelegate) BackendDelegate {
	d := BackendDelegate{ID: string(x.Id())}
	if r := x.Processed(nil); r != nil {
		d.Processed = &DataReference{Location: r.Location(), Index: r.Index()}
	}
	if has(x.Table(), 2) {
		d.CompileSpecs = make([]CompileSpec, x.CompileSpecsLength())
		var cs schema.CompileSpec
		for i := range d.CompileSpecs {
			x.CompileSpecs(&cs, i)
			d.CompileSpecs[i] = CompileSpec{Key: string(cs.Key()), Value: cs.ValueBytes()}
			if d.CompileSpecs[i].Value == nil && has(cs.Table(), 1) {
				d.CompileSpecs[i].Value = []byte{}
			}
		}
	}
	return d
}
