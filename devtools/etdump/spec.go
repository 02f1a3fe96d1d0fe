package etdump

import fb "github.com/etgo/etgo/internal/fbverify"

// The verifier's description of schema/etdump.fbs, slot by slot.
var (
	specTensor = fb.NewTable("Tensor",
		fb.Scalar("scalar_type", 1), fb.VecScalar("sizes", 8), fb.VecScalar("strides", 8), fb.Scalar("offset", 8))
	specInt        = fb.NewTable("Int", fb.Scalar("int_val", 8))
	specBool       = fb.NewTable("Bool", fb.Scalar("bool_val", 1))
	specFloat      = fb.NewTable("Float", fb.Scalar("float_val", 4))
	specDouble     = fb.NewTable("Double", fb.Scalar("double_val", 8))
	specTensorList = fb.NewTable("TensorList", fb.VecTable("tensors", specTensor))
	specValue      = fb.NewTable("Value",
		fb.Scalar("val", 1), fb.Ref("tensor", specTensor), fb.Ref("tensor_list", specTensorList), fb.Ref("int_value", specInt),
		fb.Ref("float_value", specFloat), fb.Ref("double_value", specDouble), fb.Ref("bool_value", specBool), fb.Ref("output", specBool))
	specDebugEvent = fb.NewTable("DebugEvent",
		fb.Scalar("chain_index", 8), fb.Scalar("instruction_id", 4), fb.Ref("debug_entry", specValue),
		fb.Scalar("delegate_debug_id_int", 4), fb.Str("delegate_debug_id_str"), fb.Str("name"))
	specAllocationEvent = fb.NewTable("AllocationEvent", fb.Scalar("allocator_id", 4), fb.Scalar("allocation_size", 8))
	specProfileEvent    = fb.NewTable("ProfileEvent",
		fb.Str("name"), fb.Scalar("chain_index", 4), fb.Scalar("instruction_id", 4), fb.Scalar("delegate_debug_id_int", 4),
		fb.Str("delegate_debug_id_str"), fb.VecScalar("delegate_debug_metadata", 1), fb.Scalar("start_time", 8), fb.Scalar("end_time", 8))
	specEvent = fb.NewTable("Event",
		fb.Ref("profile_event", specProfileEvent), fb.Ref("allocation_event", specAllocationEvent), fb.Ref("debug_event", specDebugEvent))
	specAllocator = fb.NewTable("Allocator", fb.Str("name"))
	specRunData   = fb.NewTable("RunData",
		fb.Str("name"), fb.Scalar("bundled_input_index", 4), fb.VecTable("allocators", specAllocator), fb.VecTable("events", specEvent))
	specETDump = fb.NewTable("ETDump", fb.Scalar("version", 4), fb.VecTable("run_data", specRunData))
)
