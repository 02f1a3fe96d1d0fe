package aot

import (
	"github.com/etgo/etgo/ir"
)

// dtypes is a set of dtypes, bit d for ir.DType d (ExecuTorch's DtypeSet).
type dtypes uint32

func dts(ds ...ir.DType) dtypes {
	var s dtypes
	for _, d := range ds {
		s |= 1 << uint(d)
	}
	return s
}

func (s dtypes) has(d ir.DType) bool { return d >= 0 && d < 32 && s&(1<<uint(d)) != 0 }

var (
	// vulkanDTypes are the dtypes a Vulkan tensor can have (utils._VULKAN_DTYPES).
	vulkanDTypes = dts(ir.Bool, ir.Uint8, ir.Int8, ir.Int32, ir.Int64, ir.Float16, ir.Float32, ir.Float64)
	fpT          = dts(ir.Float16, ir.Float32)
	intT         = dts(ir.Int32, ir.Int64)
	boolT        = dts(ir.Bool)
	allT         = vulkanDTypes
	noneT        = dtypes(0) // a position without constraint
	fpIntT       = fpT | intT
	fpIntBoolT   = fpT | intT | boolT
)

// features are what the Vulkan implementation of one operator supports (op_registry.py's
// OpFeatures). A nil dtype list means allT for the inputs and the inputs' first set for the
// outputs; a nil output storage means the first input storage.
type features struct {
	inDTypes, outDTypes []dtypes
	inStorage           []repSet
	outStorage          []repSet
	resize, highDim     bool
	prepacking          bool
	// inputsOK is are_node_inputs_supported_fn (nil: every node).
	inputsOK func(n *ir.Node) bool
	// pick is pick_io_storage_fn: the node's own storage lists (nil: the fixed ones).
	pick func(n *ir.Node) (ins, outs []repSet)
}

func (f *features) inputDTypes() []dtypes {
	if f.inDTypes == nil {
		return []dtypes{allT}
	}
	return f.inDTypes
}

func (f *features) outputDTypes() []dtypes {
	if f.outDTypes == nil {
		return f.inputDTypes()[:1]
	}
	return f.outDTypes
}

func (f *features) storage(n *ir.Node) (ins, outs []repSet) {
	if f.pick != nil {
		return f.pick(n)
	}
	outs = f.outStorage
	if len(outs) == 0 {
		outs = []repSet{at(f.inStorage, 0)}
	}
	return f.inStorage, outs
}

// dtypeAt is DtypeSetList's broadcasting lookup.
func dtypeAt(list []dtypes, i int) dtypes {
	if i > 0 && len(list) == 1 {
		return list[0]
	}
	if i < len(list) {
		return list[i]
	}
	return noneT
}

// registry maps Edge operators to their features, as ExecuTorch 1.5.1's op_registry.py
// registers them (operator order and grouping follow that file, one function per group).
var registry = map[string]*features{}

func register(f *features, targets ...string) {
	for _, t := range targets {
		if registry[t] != nil {
			panic("vulkan: " + t + " registered twice")
		}
		registry[t] = f
	}
}

func one(r repSet) []repSet { return []repSet{r} }
func dt(d dtypes) []dtypes  { return []dtypes{d} }
func noStorages(n int) []repSet {
	out := make([]repSet, n)
	for i := range out {
		out[i] = noStorage
	}
	return out
}

func init() {
	// Ephemeral operators, handled symbolically (getitem is not a node in etgo's graph).
	register(&features{inStorage: one(anyStorage), resize: true},
		"aten.sym_size.int", "_operator.add", "_operator.sub", "_operator.floordiv", "_operator.mul",
		"_operator.lt", "_operator.gt", "_operator.ge", "_operator.le", "_operator.eq",
		"aten._assert_scalar.default", "aten.sym_constrain_range_for_size.default")
	register(&features{inStorage: one(anyStorage), resize: true, inputsOK: copyIsNoop}, "aten.copy.default")

	// UnaryOp.cpp
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpT), resize: true},
		"aten.abs.default", "aten.cos.default", "aten.exp.default", "aten.gelu.default", "aten.hardshrink.default",
		"aten.hardswish.default", "aten.hardtanh.default", "aten.neg.default", "aten.relu.default", "aten.sigmoid.default",
		"aten.sin.default", "aten.sqrt.default", "aten.rsqrt.default", "aten.tanh.default", "aten.round.default",
		"aten.leaky_relu.default", "aten.log10.default")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntT), resize: true}, "aten.clamp.default")

	// BinaryOp.cpp
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntT), resize: true, highDim: true},
		"aten.add.Tensor", "aten.sub.Tensor", "aten.minimum.default", "aten.mul.Tensor", "aten.div.Tensor",
		"aten.div.Tensor_mode", "aten.pow.Tensor_Tensor")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntT), outDTypes: dt(boolT), resize: true, highDim: true},
		"aten.eq.Tensor", "aten.lt.Tensor", "aten.le.Tensor", "aten.gt.Tensor", "aten.ge.Tensor")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(boolT), resize: true, highDim: true},
		"aten.bitwise_and.Tensor", "aten.bitwise_or.Tensor", "aten.bitwise_not.default", "aten.logical_and.default",
		"aten.logical_or.default")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpT), resize: true, highDim: true}, "aten.pow.Tensor_Scalar")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntT), outDTypes: dt(boolT), resize: true, highDim: true}, "aten.eq.Scalar")

	// ToCopy.cpp
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntBoolT), outDTypes: dt(fpIntBoolT), resize: true, pick: pickToCopy},
		"aten._to_copy.default")

	// Softmax.cpp
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpT), resize: true}, "aten._log_softmax.default", "aten._softmax.default")

	// MatMul.cpp, Linear.cpp, QuantizedLinearQCSNW.cpp
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT), resize: true, prepacking: true}, "aten.bmm.default", "aten.mm.default")
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT), resize: true, prepacking: true}, "aten.addmm.default", "aten.linear.default")
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT), resize: true, prepacking: true},
		"aten._weight_int8pack_mm.default", "et_vk.linear_qcs4w.default")
	// QuantizedLinear.cpp
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT), prepacking: true}, "et_vk.linear_q8ta_q8csw.default", "et_vk.linear_q4gsw.default")
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT), prepacking: true}, "et_vk.linear_q4gsw_backward.default")
	register(&features{inStorage: []repSet{contiguousAny, widthPackedTexture, widthPackedTexture, noStorage, noStorage, noStorage, noStorage, noStorage},
		inDTypes: dt(fpT), prepacking: true}, "et_vk.linear_dq8ca_q4gsw.default")

	// QuantizeDequantize.cpp
	register(&features{inStorage: one(contiguousBuffer), resize: true},
		"quantized_decomposed.quantize_per_channel.default", "quantized_decomposed.quantize_per_token.default",
		"quantized_decomposed.dequantize_per_channel.default", "quantized_decomposed.dequantize_per_token.default")
	register(&features{inStorage: one(contiguousBuffer), resize: true}, "torchao.quantize_affine.default", "torchao.dequantize_affine.default")
	// Q8taQuantizeDequantize.cpp
	register(&features{inStorage: one(channelsTextureOrContigBuf), outStorage: one(packedInt8Buffer), highDim: true},
		"quantized_decomposed.quantize_per_tensor.default", "quantized_decomposed.quantize_per_tensor.tensor")
	register(&features{inStorage: one(packedInt8Buffer), outStorage: one(channelsTextureOrContigBuf), highDim: true},
		"quantized_decomposed.dequantize_per_tensor.default", "quantized_decomposed.dequantize_per_tensor.tensor")
	// ChooseQParams.cpp
	register(&features{inStorage: one(contiguousBuffer), resize: true},
		"quantized_decomposed.choose_qparams.tensor", "quantized_decomposed.choose_qparams_per_token_asymmetric.default")
	register(&features{inStorage: one(contiguousAny), outStorage: []repSet{widthPackedTexture, widthPackedTexture}, resize: true},
		"torchao.choose_qparams_affine.default")
	// Q8taBinary.cpp, Q8taUnary.cpp, Q8taPixelShuffle.cpp
	register(&features{inStorage: one(packedInt8Buffer)}, "et_vk.q8ta_add.default")
	register(&features{inStorage: one(packedInt8Buffer), resize: true}, "et_vk.q8ta_relu.default")
	register(&features{inStorage: one(packedInt8ChannelsBuffer), resize: true}, "et_vk.q8ta_pixel_shuffle.default")

	// Reduce.cpp, ArgReduce.cpp
	register(&features{inStorage: one(anyTexture), inDTypes: dt(fpT), resize: true, highDim: true, inputsOK: reduceSupported, pick: pickReduce},
		"aten.mean.dim", "aten.sum.dim_IntList", "aten.amax.default", "aten.amin.default")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpT), outDTypes: dt(intT), resize: true, highDim: true, inputsOK: reduceSupported, pick: pickReduce},
		"aten.argmax.default", "aten.argmin.default")

	// Pool.cpp
	register(&features{inStorage: one(channelsPackedTexture), inDTypes: dt(fpT), resize: true}, "aten.avg_pool2d.default", "aten.max_pool2d.default")
	register(&features{inStorage: one(channelsPackedTexture), inDTypes: dt(fpT), outDTypes: []dtypes{fpT, intT}, resize: true},
		"aten.max_pool2d_with_indices.default")

	// Convolution.cpp
	register(&features{inStorage: append(one(channelsPackedTexture), noStorages(10)...), inDTypes: dt(fpT), resize: true, prepacking: true,
		inputsOK: convSupported, pick: pickConv}, "aten.convolution.default", "et_vk.conv_with_clamp.default")
	q8conv := func(n int) []repSet { return append([]repSet{{}}, noStorages(n-1)...) }
	c15 := q8conv(15)
	c15[0] = repSet{lay(3), 0} // PACKED_INT8_4W4C
	register(&features{inStorage: c15, outStorage: one(packedInt8ChannelsBuffer), prepacking: true}, "et_vk.q8ta_conv2d_pw.default")
	conv2d := q8conv(15)
	conv2d[0] = repSet{lay(9), 0} // PACKED_INT8_CONV2D
	register(&features{inStorage: conv2d, outStorage: one(packedInt8ChannelsBuffer), prepacking: true},
		"et_vk.q8ta_conv2d.default", "et_vk.q8ta_conv2d_dw.default")
	convT := q8conv(16)
	convT[0] = repSet{lay(9), 0}
	register(&features{inStorage: convT, outStorage: one(packedInt8ChannelsBuffer), prepacking: true}, "et_vk.q8ta_conv2d_transposed.default")
	lin := q8conv(10)
	lin[0] = repSet{lay(4), 0} // PACKED_INT8_4H4W
	register(&features{inStorage: lin, outStorage: one(repSet{lay(4), 0}), prepacking: true}, "et_vk.q8ta_linear.default")
	gemv := q8conv(10)
	gemv[0] = repSet{lay(5), 0} // PACKED_INT8_4W
	register(&features{inStorage: gemv, outStorage: one(repSet{lay(5), 0}), prepacking: true}, "et_vk.q8ta_linear_gemv.default")

	// SDPA.cpp, RotaryEmbedding.cpp
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT), resize: true, prepacking: true}, "llama.sdpa_with_kv_cache.default")
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT), resize: true}, "llama.update_cache.default", "llama.custom_sdpa.default")
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT), resize: true}, "et_vk.sdpa.default")
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT), resize: true, highDim: true},
		"et_vk.apply_rotary_emb.default", "et_vk.apply_rotary_emb_hf.default")
	register(&features{inStorage: []repSet{contiguousAny, contiguousBuffer}, inDTypes: dt(fpT), resize: true, highDim: true},
		"et_vk.apply_rotary_emb_interleaved.default")

	// Permute.cpp, View.cpp, Squeeze.cpp, Unsqueeze.cpp, Clone.cpp, Unfold.cpp, Gather.cpp, Expand.cpp
	register(&features{inStorage: one(anyTexture), inDTypes: dt(fpIntBoolT), resize: true}, "aten.permute.default")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntBoolT), resize: true, highDim: true}, "aten.permute_copy.default")
	register(&features{inStorage: one(anyStorageInclInt8), inDTypes: dt(fpIntBoolT), resize: true, highDim: true}, "aten.view_copy.default")
	register(&features{inStorage: one(anyBuffer), inDTypes: dt(fpIntBoolT), resize: true, highDim: true}, "dim_order_ops._to_dim_order_copy.default")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntBoolT), resize: true, highDim: true}, "aten.squeeze_copy.dims")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntBoolT), resize: true, highDim: true}, "aten.unsqueeze_copy.default")
	register(&features{inStorage: one(anyStorageInclInt8), inDTypes: dt(fpIntBoolT), resize: true, highDim: true}, "aten.clone.default")
	register(&features{inStorage: one(anyStorageInclInt8), inDTypes: dt(fpIntBoolT), resize: true, highDim: true}, "dim_order_ops._clone_dim_order.default")
	register(&features{inStorage: one(anyStorageInclInt8), inDTypes: dt(fpIntBoolT), resize: true, highDim: true}, "aten.alias_copy.default")
	register(&features{inStorage: one(anyBuffer), inDTypes: dt(fpT), resize: true, highDim: true}, "aten.unfold_copy.default")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntBoolT), resize: true, highDim: true}, "aten.gather.default")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntBoolT), highDim: true}, "aten.expand_copy.default")

	// Concat.cpp, Select.cpp, Slice.cpp, Split.cpp, Transpose.cpp, Flip.cpp, IndexSelect.cpp, Where.cpp
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntT), resize: true}, "aten.cat.default")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntBoolT), resize: true, highDim: true}, "aten.select_copy.int")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntBoolT), resize: true, highDim: true}, "aten.slice_copy.Tensor")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntBoolT), resize: true, highDim: true}, "aten.split_with_sizes_copy.default")
	register(&features{inStorage: one(channelsPackedTexture), inDTypes: dt(fpIntBoolT)}, "aten.t_copy.default")
	register(&features{inStorage: one(channelsPackedTexture), inDTypes: dt(fpIntBoolT)}, "aten.flip.default")
	register(&features{inStorage: one(channelsPackedTexture), inDTypes: dt(fpIntBoolT)}, "aten.index_select.default")
	register(&features{inStorage: one(anyStorage), inDTypes: []dtypes{boolT, fpT, fpT}, outDTypes: dt(fpT), resize: true}, "aten.where.self")

	// IndexTensor.cpp, Arange.cpp, Pad.cpp, Full.cpp, ScalarTensor.cpp, Upsample.cpp, PixelShuffle.cpp
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntT), resize: true, inputsOK: indexTensorSupported, pick: pickIndexTensor},
		"aten.index.Tensor")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntT), resize: true}, "aten.arange.start_step")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntBoolT), resize: true}, "aten.constant_pad_nd.default")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntBoolT)},
		"aten.full.default", "aten.full_like.default", "aten.ones.default", "aten.ones_like.default", "aten.zeros.default", "aten.zeros_like.default")
	// ScalarTensor.cpp is registered for the Edge op exir_ops.edge.aten.scalar_tensor, but the
	// Edge conversion leaves scalar_tensor an ATen op (the Edge verifier lets it through), so the
	// official lookup never finds it and every scalar_tensor node is declined (hf_albert's
	// masks); etgo's graph names both alike, so the operator is left out here instead.
	register(&features{inStorage: one(channelsPackedTexture), inDTypes: dt(fpT)}, "aten.upsample_nearest2d.vec", "aten.upsample_bilinear2d.vec")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpT), resize: true}, "aten.pixel_shuffle.default")

	// GridPriors.cpp, GridSampler2d.cpp, Repeat.cpp, Embedding.cpp
	register(&features{inStorage: one(channelsPackedTexture), inDTypes: dt(fpT)}, "et_vk.grid_priors.default")
	register(&features{inStorage: []repSet{channelsPackedTexture, contiguousBuffer}, inDTypes: dt(fpT), resize: true, inputsOK: gridSamplerSupported},
		"aten.grid_sampler_2d.default")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntBoolT)}, "aten.repeat.default")
	register(&features{inStorage: one(anyStorage), inDTypes: []dtypes{fpT, intT}, prepacking: true, resize: true, inputsOK: embeddingWeightFits},
		"aten.embedding.default")
	register(&features{inStorage: one(anyBuffer), prepacking: true, resize: true, inputsOK: embeddingWeightFits},
		"quantized_decomposed.embedding_4bit.dtype")
	register(&features{inStorage: one(contiguousAny), prepacking: true, resize: true}, "et_vk.embedding_q4gsw.default")

	// BatchNorm.cpp, GroupNorm.cpp, NativeLayerNorm.cpp, RmsNorm.cpp
	register(&features{inStorage: one(channelsPackedTexture), inDTypes: dt(fpT), prepacking: true, resize: true},
		"aten._native_batch_norm_legit_no_training.default")
	register(&features{inStorage: one(channelsPackedTexture), inDTypes: dt(fpT), outStorage: []repSet{channelsPackedTexture, contiguousBuffer, contiguousBuffer},
		prepacking: true}, "aten.native_group_norm.default")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpT), prepacking: true, resize: true}, "aten.native_layer_norm.default")
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT), prepacking: true, resize: true}, "et_vk.rms_norm.default")

	// Training and comparison operators
	register(&features{inStorage: one(contiguousAny), inDTypes: []dtypes{fpT, intT, noneT}, outDTypes: []dtypes{fpT, fpT}}, "et_vk.fused_ce.default")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(fpIntT), outDTypes: dt(boolT), resize: true, highDim: true},
		"aten.ne.Scalar", "aten.lt.Scalar", "aten.le.Scalar", "aten.ge.Scalar", "aten.gt.Scalar")
	register(&features{inStorage: one(anyStorage), inDTypes: dt(boolT), resize: true, highDim: true}, "aten.logical_not.default")
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT)}, "et_vk.adamw_step.default")
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT), prepacking: true}, "et_vk.linear_dW.default")
	register(&features{inStorage: one(contiguousAny), inDTypes: dt(fpT)}, "et_vk.q4gsw_requant.default")
}
