package pte

// The verifier's description of schema/program.fbs, slot by slot. TestSchemaSpecMatchesFBS
// checks it against the .fbs file, so the two cannot drift apart silently.

func scalar(name string, size int) fieldSpec { return fieldSpec{name: name, kind: fScalar, size: size} }
func str(name string) fieldSpec              { return fieldSpec{name: name, kind: fString} }
func table(name string, t *tableSpec) fieldSpec {
	return fieldSpec{name: name, kind: fTable, table: t}
}
func vecScalar(name string, size int) fieldSpec {
	return fieldSpec{name: name, kind: fVecScalar, size: size}
}
func vecTable(name string, t *tableSpec) fieldSpec {
	return fieldSpec{name: name, kind: fVecTable, table: t}
}

// union returns the two slots of a union field: its tag, then its value.
func union(name string, u *unionSpec) []fieldSpec {
	return []fieldSpec{{name: name + "_type", kind: fUnionType, size: 1}, {name: name, kind: fUnion, union: u}}
}

func req(f fieldSpec) fieldSpec {
	f.required = true
	return f
}

func fields(parts ...any) []fieldSpec {
	var out []fieldSpec
	for _, p := range parts {
		switch p := p.(type) {
		case fieldSpec:
			out = append(out, p)
		case []fieldSpec:
			out = append(out, p...)
		}
	}
	return out
}

var (
	specContainerMetadata = &tableSpec{"ContainerMetadata", fields(str("encoded_inp_str"), str("encoded_out_str"))}
	specNull              = &tableSpec{"Null", nil}
	specAllocationDetails = &tableSpec{"AllocationDetails", fields(
		scalar("memory_id", 4), scalar("memory_offset_low", 4), scalar("memory_offset_high", 4))}
	specExtraTensorInfo = &tableSpec{"ExtraTensorInfo", fields(
		scalar("mutable_data_segments_idx", 8), str("fully_qualified_name"), scalar("location", 1),
		scalar("device_type", 1), scalar("device_index", 1))}
	specTensor = &tableSpec{"Tensor", fields(
		scalar("scalar_type", 1), scalar("storage_offset", 4), req(vecScalar("sizes", 4)), req(vecScalar("dim_order", 1)),
		scalar("requires_grad", 1), scalar("data_buffer_idx", 4), table("allocation_info", specAllocationDetails),
		scalar("layout", 1), scalar("shape_dynamism", 1), table("extra_tensor_info", specExtraTensorInfo))}
	specInt                = &tableSpec{"Int", fields(scalar("int_val", 8))}
	specBool               = &tableSpec{"Bool", fields(scalar("bool_val", 1))}
	specDouble             = &tableSpec{"Double", fields(scalar("double_val", 8))}
	specString             = &tableSpec{"String", fields(str("string_val"))}
	specIntList            = &tableSpec{"IntList", fields(vecScalar("items", 8))}
	specDoubleList         = &tableSpec{"DoubleList", fields(vecScalar("items", 8))}
	specBoolList           = &tableSpec{"BoolList", fields(vecScalar("items", 1))}
	specTensorList         = &tableSpec{"TensorList", fields(vecScalar("items", 4))}
	specOptionalTensorList = &tableSpec{"OptionalTensorList", fields(vecScalar("items", 4))}
	specKernelTypes        = &unionSpec{"KernelTypes", []*tableSpec{
		specNull, specInt, specBool, specDouble, specTensor, specString, specIntList,
		specDoubleList, specBoolList, specTensorList, specOptionalTensorList}}
	specEValue        = &tableSpec{"EValue", fields(union("val", specKernelTypes))}
	specOperator      = &tableSpec{"Operator", fields(req(str("name")), req(str("overload")))}
	specKernelCall    = &tableSpec{"KernelCall", fields(scalar("op_index", 4), vecScalar("args", 4))}
	specDelegateCall  = &tableSpec{"DelegateCall", fields(scalar("delegate_index", 4), vecScalar("args", 4))}
	specMoveCall      = &tableSpec{"MoveCall", fields(scalar("move_from", 4), scalar("move_to", 4))}
	specJumpFalseCall = &tableSpec{"JumpFalseCall", fields(scalar("cond_value_index", 4), scalar("destination_instruction", 4))}
	specFreeCall      = &tableSpec{"FreeCall", fields(scalar("value_index", 4))}
	specInstrArgs     = &unionSpec{"InstructionArguments", []*tableSpec{
		specKernelCall, specDelegateCall, specMoveCall, specJumpFalseCall, specFreeCall}}
	specInstruction = &tableSpec{"Instruction", fields(union("instr_args", specInstrArgs))}
	specFrame       = &tableSpec{"Frame", fields(str("filename"), scalar("lineno", 4), str("name"), str("context"))}
	specFrameList   = &tableSpec{"FrameList", fields(vecTable("items", specFrame))}
	specDataRef     = &tableSpec{"BackendDelegateDataReference", fields(scalar("location", 1), scalar("index", 4))}
	specCompileSpec = &tableSpec{"CompileSpec", fields(req(str("key")), req(vecScalar("value", 1)))}
	specDelegate    = &tableSpec{"BackendDelegate", fields(
		req(str("id")), req(table("processed", specDataRef)), vecTable("compile_specs", specCompileSpec))}
	specChain = &tableSpec{"Chain", fields(
		vecScalar("inputs", 4), vecScalar("outputs", 4), req(vecTable("instructions", specInstruction)),
		vecTable("stacktrace", specFrameList))}
	specNonConstBufferDevice = &tableSpec{"NonConstBufferDevice", fields(
		scalar("buffer_idx", 4), scalar("device_type", 1), scalar("device_index", 1))}
	specExecutionPlan = &tableSpec{"ExecutionPlan", fields(
		req(str("name")), table("container_meta_type", specContainerMetadata), req(vecTable("values", specEValue)),
		req(vecScalar("inputs", 4)), req(vecScalar("outputs", 4)), req(vecTable("chains", specChain)),
		vecTable("operators", specOperator), req(vecTable("delegates", specDelegate)),
		req(vecScalar("non_const_buffer_sizes", 8)), vecTable("non_const_buffer_device", specNonConstBufferDevice))}
	specBuffer            = &tableSpec{"Buffer", fields(vecScalar("storage", 1))}
	specInlineData        = &tableSpec{"BackendDelegateInlineData", fields(vecScalar("data", 1))}
	specDataSegment       = &tableSpec{"DataSegment", fields(scalar("offset", 8), scalar("size", 8))}
	specSubsegmentOffsets = &tableSpec{"SubsegmentOffsets", fields(scalar("segment_index", 4), vecScalar("offsets", 8))}
	specNamedData         = &tableSpec{"NamedData", fields(str("key"), scalar("segment_index", 4))}
	specProgram           = &tableSpec{"Program", fields(
		scalar("version", 4), req(vecTable("execution_plan", specExecutionPlan)), vecTable("constant_buffer", specBuffer),
		vecTable("backend_delegate_data", specInlineData), vecTable("segments", specDataSegment),
		table("constant_segment", specSubsegmentOffsets), vecTable("mutable_data_segments", specSubsegmentOffsets),
		vecTable("named_data", specNamedData))}
)
