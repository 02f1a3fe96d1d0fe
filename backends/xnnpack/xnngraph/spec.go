package xnngraph

import fb "github.com/etgo/etgo/internal/fbverify"

// The verifier's description of schema/xnnpack.fbs, slot by slot (the node types' tables are in
// their families' op_*.go files); TestSpecMatchesFBS keeps the two equal.

func u32s(names ...string) []fb.Field {
	out := make([]fb.Field, len(names))
	for i, n := range names {
		out[i] = fb.Scalar(n, 4)
	}
	return out
}

var (
	specPerChannelQuant = fb.NewTable("PerChannelQuant",
		fb.VecScalar("scale", 4), fb.Scalar("channel_dim", 4), fb.Scalar("scale_buffer_idx", 4), fb.Scalar("num_scales", 4))
	specPerTensorQuant       = fb.NewTable("PerTensorQuant", fb.Scalar("scale", 4), fb.Scalar("zero_point", 4))
	specPerTokenDynamicQuant = fb.NewTable("PerTokenDynamicQuant", fb.Scalar("num_nonbatch_dims", 4))
	specPerChannelGroupQuant = fb.NewTable("PerChannelGroupQuant",
		fb.VecScalar("scale", 4), fb.Scalar("channel_dim", 4), fb.Scalar("group_size", 4), fb.VecScalar("scale_bf16", 2),
		fb.Scalar("scale_buffer_idx", 4), fb.Scalar("num_scales", 4))
	specQuantParams = fb.NewUnion("XNNQuantParams",
		specPerChannelQuant, specPerTensorQuant, specPerTokenDynamicQuant, specPerChannelGroupQuant)
	specTensorValue = fb.NewTable("XNNTensorValue",
		fb.Scalar("datatype", 2), fb.Scalar("num_dims", 4), fb.VecScalar("dims", 4), u32s("constant_buffer_idx", "external_id", "flags", "id_out"),
		fb.Scalar("dq_datatype", 2))
	specQuantizedTensorValue = fb.NewTable("XNNQuantizedTensorValue",
		fb.Ref("tensor_value", specTensorValue), fb.UnionOf("quant_params", specQuantParams))
	specXValueUnion = fb.NewUnion("XValueUnion", specTensorValue, specQuantizedTensorValue)
	specXValue      = fb.NewTable("XValue", fb.UnionOf("xvalue_union", specXValueUnion))

	// The node types' tables join the union as their families register them (nodetype.go);
	// several tags share a table.
	specNodeUnion    = fb.NewUnion("XNodeUnion")
	specOutputMinMax = fb.NewTable("OutputMinMax", fb.Scalar("output_min", 4), fb.Scalar("output_max", 4))
	specXNode        = fb.NewTable("XNode", fb.UnionOf("xnode_union", specNodeUnion), fb.Scalar("debug_handle", 4),
		fb.Ref("output_min_max", specOutputMinMax))
	specBuffer       = fb.NewTable("Buffer", fb.VecScalar("storage", 1))
	specConstantData = fb.NewTable("ConstantDataOffset", fb.Scalar("offset", 8), fb.Scalar("size", 8), fb.Str("named_key"))
	specGraph        = fb.NewTable("XNNGraph",
		fb.Str("version"), fb.Req(fb.VecTable("xnodes", specXNode)), fb.Req(fb.VecTable("xvalues", specXValue)),
		fb.Scalar("num_externs", 4), fb.VecScalar("input_ids", 4), fb.VecScalar("output_ids", 4),
		fb.VecTable("constant_buffer", specBuffer), fb.VecScalar("mem_buffer_sizes", 4), fb.VecTable("constant_data", specConstantData))
)

// SchemaSpec is the verifier's description of the XNNGraph flatbuffer, for etgo's own tools
// that walk a blob's fields (the mutation campaign, internal/mutate). Callers must not modify it.
func SchemaSpec() *fb.Table { return specGraph }
