package xnngraph

import fb "github.com/etgo/etgo/internal/fbverify"

// The verifier's description of schema/xnnpack.fbs, slot by slot; TestSpecMatchesFBS keeps the
// two equal.

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

	specNode1x1 = fb.NewTable("_XNNNode1x1", u32s("input_id", "output_id", "flags"))
	specNode2x1 = fb.NewTable("_XNNNode2x1", u32s("input1_id", "input2_id", "output_id", "flags"))
	specCat     = fb.NewTable("_XNNCat", u32s("axis", "input1_id", "input2_id", "input3_id", "input4_id", "output_id", "flags", "input5_id"))
	specFC      = fb.NewTable("XNNFullyConnected", u32s("input1_id", "filter_id", "bias_id", "output_id", "flags"))
	specConv    = fb.NewTable("_XNNNodeConv", u32s("padding_top", "padding_right", "padding_bottom", "padding_left",
		"kernel_height", "kernel_width", "subsampling_height", "subsampling_width", "dilation_height", "dilation_width",
		"group_input_channels", "group_output_channels", "groups", "adjustment_height", "adjustment_width",
		"input1_id", "filter_id", "bias_id", "output_id", "flags"))
	specPool = fb.NewTable("_XNNPooling2D", u32s("padding_top", "padding_right", "padding_bottom", "padding_left",
		"pooling_height", "pooling_width", "stride_height", "stride_width", "dilation_height", "dilation_width",
		"input_id", "output_id", "flags"))
	specArgMaxPool = fb.NewTable("XNNArgMaxPooling2d", u32s("padding_top", "padding_right", "padding_bottom", "padding_left",
		"pooling_height", "pooling_width", "input_id", "output_value_id", "output_index_id", "flags"))
	specTranspose = fb.NewTable("XNNStaticTranspose", fb.Scalar("num_dims", 4), fb.VecScalar("perm", 4), u32s("input_id", "output_id", "flags"))
	specReshape   = fb.NewTable("XNNStaticReshape", fb.Scalar("num_dims", 4), fb.VecScalar("new_shape", 4), u32s("input_id", "output_id", "flags"))
	specSlice     = fb.NewTable("XNNStaticSlice", fb.Scalar("num_dims", 4), fb.VecScalar("offsets", 4), fb.VecScalar("sizes", 4),
		u32s("input_id", "output_id", "flags"))
	specPad = fb.NewTable("XNNStaticConstantPad", fb.VecScalar("pre_paddings", 4), fb.VecScalar("post_paddings", 4),
		fb.Scalar("padding_value", 4), u32s("input_id", "output_id", "flags"))
	specResize = fb.NewTable("XNNStaticResizeBilinear2D", u32s("new_height", "new_width", "input_id", "output_id", "flags"))
	specELU    = fb.NewTable("XNNELU", fb.Scalar("alpha", 4), u32s("input_id", "output_id", "flags"))
	specLeaky  = fb.NewTable("XNNLeakyReLU", fb.Scalar("negative_slope", 4), u32s("input_id", "output_id", "flags"))
	specSDPA   = fb.NewTable("XNNScaledDotProductAttention", u32s("query_id", "key_id", "value_id", "scale_id", "mask_id", "output_id", "flags"))

	// Members in tag order (tag 1 is XNNAdd); several tags share a table.
	specNodeUnion = fb.NewUnion("XNodeUnion",
		specNode2x1, specFC, specNode1x1, specNode1x1, specTranspose, specNode1x1, specConv, specNode2x1, specResize, specPad,
		specPool, specNode2x1, specConv, specPool, specNode2x1, specNode2x1, specNode1x1, specNode1x1, specNode1x1, specReshape,
		specArgMaxPool, specNode1x1, specNode1x1, specNode1x1, specLeaky, specNode2x1, specNode1x1, specNode1x1, specELU, specNode1x1,
		specNode2x1, specCat, specCat, specCat, specSlice, specSDPA, specNode2x1, specCat, specConv, specNode1x1,
		specNode1x1, specNode1x1, specNode1x1, specNode1x1, specNode1x1, specNode1x1, specNode1x1)
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
