package aot

import "github.com/etgo/etgo/partition/configs"

// The quantisation family: the per-tensor quantize and dequantize configs
// (generic_node_configs.py), which claim the conversions around a statically quantised
// operator, and the torchao affine ones (quant_affine_configs.py), which only keep their
// operators whole through the Edge conversion. The visitors (preprocess_quant.go) write an
// implicit q/dq as nothing and an explicit one as a Convert.
func init() {
	register(family{
		name: "quantisation",
		configs: func(*Partitioner) []*configs.Config {
			static := []configs.Precision{configs.StaticQuant}
			return []*configs.Config{
				{Name: "QuantizedPerTensorConfig", Target: "quantize_per_tensor.default", Precisions: static, QuantOp: true, Claim: configs.NodeOnly},
				{Name: "DeQuantizedPerTensorConfig", Target: "dequantize_per_tensor.default", Precisions: static, QuantOp: true, Claim: configs.NodeOnly},
				affine("QuantizeAffineConfig", "quantize_affine.default", "torchao.quantize_affine.default"),
				affine("DeQuantizeAffineConfig", "dequantize_affine.default", "torchao.dequantize_affine.default"),
				affine("ChooseQParamsAffineConfig", "choose_qparams_affine.default", "torchao.choose_qparams_affine.default"),
			}
		},
		ops: []op{
			{target: "quantized_decomposed.quantize_per_tensor.default", visit: (*preprocessor).visitQuantize},
			{target: "quantized_decomposed.dequantize_per_tensor.default", visit: (*preprocessor).visitDequantize},
			{target: "quantized_decomposed.quantize_per_channel.default", visit: (*preprocessor).visitQDQWeight},
			{target: "quantized_decomposed.dequantize_per_channel.default", visit: (*preprocessor).visitQDQWeight},
			{target: "quantized_decomposed.quantize_per_tensor.tensor", visit: (*preprocessor).visitQuantize},
			{target: "quantized_decomposed.dequantize_per_tensor.tensor", visit: (*preprocessor).visitAlias},
			{target: "quantized_decomposed.choose_qparams.tensor", visit: (*preprocessor).visitAlias},
			{target: "torchao.choose_qparams_affine.default", visit: (*preprocessor).visitAlias},
			{target: "torchao.quantize_affine.default", visit: (*preprocessor).visitAffine},
			{target: "torchao.dequantize_affine.default", visit: (*preprocessor).visitAffine},
		},
	})
}

// affine configs exist only to keep torchao's affine quantisation ops whole; they claim nothing.
func affine(name, target, aten string) *configs.Config {
	return &configs.Config{Name: name, Target: target, Precisions: []configs.Precision{configs.DynamicQuant}, KeepWhole: aten,
		SkipCommon: true, QuantOp: true, Claim: configs.Nothing}
}
