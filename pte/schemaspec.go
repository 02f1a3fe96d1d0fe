package pte

import fb "github.com/etgo/etgo/internal/fbverify"

// The verifier's description of schema/program.fbs, slot by slot. TestSchemaSpecMatchesFBS
// checks it against the .fbs file, so the two cannot drift apart silently.

var (
	specContainerMetadata = fb.NewTable("ContainerMetadata", fb.Str("encoded_inp_str"), fb.Str("encoded_out_str"))
	specNull              = fb.NewTable("Null")
	specAllocationDetails = fb.NewTable("AllocationDetails",
		fb.Scalar("memory_id", 4), fb.Scalar("memory_offset_low", 4), fb.Scalar("memory_offset_high", 4))
	specExtraTensorInfo = fb.NewTable("ExtraTensorInfo",
		fb.Scalar("mutable_data_segments_idx", 8), fb.Str("fully_qualified_name"), fb.Scalar("location", 1),
		fb.Scalar("device_type", 1), fb.Scalar("device_index", 1))
	specTensor = fb.NewTable("Tensor",
		fb.Scalar("scalar_type", 1), fb.Scalar("storage_offset", 4), fb.Req(fb.VecScalar("sizes", 4)), fb.Req(fb.VecScalar("dim_order", 1)),
		fb.Scalar("requires_grad", 1), fb.Scalar("data_buffer_idx", 4), fb.Ref("allocation_info", specAllocationDetails),
		fb.Scalar("layout", 1), fb.Scalar("shape_dynamism", 1), fb.Ref("extra_tensor_info", specExtraTensorInfo))
	specInt                = fb.NewTable("Int", fb.Scalar("int_val", 8))
	specBool               = fb.NewTable("Bool", fb.Scalar("bool_val", 1))
	specDouble             = fb.NewTable("Double", fb.Scalar("double_val", 8))
	specString             = fb.NewTable("String", fb.Str("string_val"))
	specIntList            = fb.NewTable("IntList", fb.VecScalar("items", 8))
	specDoubleList         = fb.NewTable("DoubleList", fb.VecScalar("items", 8))
	specBoolList           = fb.NewTable("BoolList", fb.VecScalar("items", 1))
	specTensorList         = fb.NewTable("TensorList", fb.VecScalar("items", 4))
	specOptionalTensorList = fb.NewTable("OptionalTensorList", fb.VecScalar("items", 4))
	specKernelTypes        = fb.NewUnion("KernelTypes",
		specNull, specInt, specBool, specDouble, specTensor, specString, specIntList,
		specDoubleList, specBoolList, specTensorList, specOptionalTensorList)
	specEValue        = fb.NewTable("EValue", fb.UnionOf("val", specKernelTypes))
	specOperator      = fb.NewTable("Operator", fb.Req(fb.Str("name")), fb.Req(fb.Str("overload")))
	specKernelCall    = fb.NewTable("KernelCall", fb.Scalar("op_index", 4), fb.VecScalar("args", 4))
	specDelegateCall  = fb.NewTable("DelegateCall", fb.Scalar("delegate_index", 4), fb.VecScalar("args", 4))
	specMoveCall      = fb.NewTable("MoveCall", fb.Scalar("move_from", 4), fb.Scalar("move_to", 4))
	specJumpFalseCall = fb.NewTable("JumpFalseCall", fb.Scalar("cond_value_index", 4), fb.Scalar("destination_instruction", 4))
	specFreeCall      = fb.NewTable("FreeCall", fb.Scalar("value_index", 4))
	specInstrArgs     = fb.NewUnion("InstructionArguments",
		specKernelCall, specDelegateCall, specMoveCall, specJumpFalseCall, specFreeCall)
	specInstruction = fb.NewTable("Instruction", fb.UnionOf("instr_args", specInstrArgs))
	specFrame       = fb.NewTable("Frame", fb.Str("filename"), fb.Scalar("lineno", 4), fb.Str("name"), fb.Str("context"))
	specFrameList   = fb.NewTable("FrameList", fb.VecTable("items", specFrame))
	specDataRef     = fb.NewTable("BackendDelegateDataReference", fb.Scalar("location", 1), fb.Scalar("index", 4))
	specCompileSpec = fb.NewTable("CompileSpec", fb.Req(fb.Str("key")), fb.Req(fb.VecScalar("value", 1)))
	specDelegate    = fb.NewTable("BackendDelegate",
		fb.Req(fb.Str("id")), fb.Req(fb.Ref("processed", specDataRef)), fb.VecTable("compile_specs", specCompileSpec))
	specChain = fb.NewTable("Chain",
		fb.VecScalar("inputs", 4), fb.VecScalar("outputs", 4), fb.Req(fb.VecTable("instructions", specInstruction)),
		fb.VecTable("stacktrace", specFrameList))
	specNonConstBufferDevice = fb.NewTable("NonConstBufferDevice",
		fb.Scalar("buffer_idx", 4), fb.Scalar("device_type", 1), fb.Scalar("device_index", 1))
	specExecutionPlan = fb.NewTable("ExecutionPlan",
		fb.Req(fb.Str("name")), fb.Ref("container_meta_type", specContainerMetadata), fb.Req(fb.VecTable("values", specEValue)),
		fb.Req(fb.VecScalar("inputs", 4)), fb.Req(fb.VecScalar("outputs", 4)), fb.Req(fb.VecTable("chains", specChain)),
		fb.VecTable("operators", specOperator), fb.Req(fb.VecTable("delegates", specDelegate)),
		fb.Req(fb.VecScalar("non_const_buffer_sizes", 8)), fb.VecTable("non_const_buffer_device", specNonConstBufferDevice))
	specBuffer            = fb.NewTable("Buffer", fb.VecScalar("storage", 1))
	specInlineData        = fb.NewTable("BackendDelegateInlineData", fb.VecScalar("data", 1))
	specDataSegment       = fb.NewTable("DataSegment", fb.Scalar("offset", 8), fb.Scalar("size", 8))
	specSubsegmentOffsets = fb.NewTable("SubsegmentOffsets", fb.Scalar("segment_index", 4), fb.VecScalar("offsets", 8))
	specNamedData         = fb.NewTable("NamedData", fb.Str("key"), fb.Scalar("segment_index", 4))
	specProgram           = fb.NewTable("Program",
		fb.Scalar("version", 4), fb.Req(fb.VecTable("execution_plan", specExecutionPlan)), fb.VecTable("constant_buffer", specBuffer),
		fb.VecTable("backend_delegate_data", specInlineData), fb.VecTable("segments", specDataSegment),
		fb.Ref("constant_segment", specSubsegmentOffsets), fb.VecTable("mutable_data_segments", specSubsegmentOffsets),
		fb.VecTable("named_data", specNamedData))
)

// SchemaSpec is the verifier's description of program.fbs (the Program root table), for etgo's
// own tools that walk a file's fields (the delegate-blob mutation campaign). Callers must not
// modify it.
func SchemaSpec() *fb.Table { return specProgram }
