package vkgraph

import fb "github.com/etgo/etgo/internal/fbverify"

// The verifier's description of schema/vulkan.fbs, slot by slot; TestSpecMatchesFBS keeps the
// two equal. Fields the official runtime dereferences without a null check (the graph's chain,
// values, inputs and outputs, an operator's name and args, a tensor's dims) are required: a
// blob without one crashes the official runtime, and etgo refuses it.
var (
	specOperatorCall = fb.NewTable("OperatorCall", fb.Scalar("node_id", 4), fb.Req(fb.Str("name")), fb.Req(fb.VecScalar("args", 4)))
	specTensor       = fb.NewTable("VkTensor", fb.Scalar("datatype", 1), fb.Req(fb.VecScalar("dims", 4)), fb.Scalar("constant_id", 4),
		fb.Scalar("mem_obj_id", 4), fb.Scalar("storage_type", 1), fb.Scalar("memory_layout", 1), fb.Scalar("staging_datatype", 1))
	specNull       = fb.NewTable("Null")
	specInt        = fb.NewTable("Int", fb.Scalar("int_val", 8))
	specBool       = fb.NewTable("Bool", fb.Scalar("bool_val", 1))
	specDouble     = fb.NewTable("Double", fb.Scalar("double_val", 8))
	specString     = fb.NewTable("String", fb.Str("string_val"))
	specIntList    = fb.NewTable("IntList", fb.VecScalar("items", 8))
	specDoubleList = fb.NewTable("DoubleList", fb.VecScalar("items", 8))
	specBoolList   = fb.NewTable("BoolList", fb.VecScalar("items", 1))
	specValueList  = fb.NewTable("ValueList", fb.VecScalar("items", 4))
	specSymInt     = fb.NewTable("SymInt", fb.Scalar("value", 4))
	specGraphTypes = fb.NewUnion("GraphTypes", specNull, specInt, specDouble, specBool, specTensor, specIntList,
		specDoubleList, specBoolList, specValueList, specString, specSymInt)
	specValue = fb.NewTable("VkValue", fb.UnionOf("value", specGraphTypes))
	specBytes = fb.NewTable("VkBytes", fb.Scalar("offset", 8), fb.Scalar("length", 8), fb.Str("named_key"))
	specGraph = fb.NewTable("VkGraph", fb.Str("version"), fb.Req(fb.VecTable("chain", specOperatorCall)), fb.Req(fb.VecTable("values", specValue)),
		fb.Req(fb.VecScalar("input_ids", 4)), fb.Req(fb.VecScalar("output_ids", 4)), fb.VecTable("constants", specBytes),
		fb.VecTable("shaders", specBytes), fb.Scalar("storage_type_override", 1), fb.Scalar("memory_layout_override", 1))
)

// SchemaSpec is the verifier's description of the VkGraph flatbuffer, for etgo's own tools
// that walk a blob's fields (the mutation campaign). Callers must not modify it.
func SchemaSpec() *fb.Table { return specGraph }
