package quantized

import (
	"fmt"

	"github.com/etgo/etgo/executor"
)

// Kernels returns the operators of ExecuTorch's quantized kernel library, by the names its
// quantized.yaml registers.
func Kernels() []executor.Kernel {
	u8i8 := []executor.ScalarType{executor.Uint8, executor.Int8}
	u8 := []executor.ScalarType{executor.Uint8}
	// The official kernels' input types (the first tensor argument, which the method load
	// checks); everything else is checked by each kernel.
	floatIn := []executor.ScalarType{executor.Float32, executor.Float16, executor.Float64}
	quantIn := []executor.ScalarType{executor.Uint8, executor.Int8, executor.Uint16, executor.Int16, executor.Int32}
	intIn := []executor.ScalarType{executor.Uint8, executor.Int8, executor.Int16, executor.Int32, executor.Int64}
	f32 := []executor.ScalarType{executor.Float32}
	f32f16 := []executor.ScalarType{executor.Float32, executor.Float16}
	return []executor.Kernel{
		{Name: "quantized_decomposed::add.out", DTypes: intIn, Fn: addOut},
		{Name: "quantized_decomposed::choose_qparams.Tensor_out", DTypes: f32, Fn: chooseQParamsTensorOut},
		{Name: "quantized_decomposed::choose_qparams_per_token_asymmetric.out", DTypes: f32, Fn: chooseQParamsPerTokenAsymmetricOut},
		{Name: "quantized_decomposed::quantize_per_tensor.out", DTypes: floatIn, Fn: quantizePerTensorOut},
		{Name: "quantized_decomposed::quantize_per_tensor.Tensor_out", DTypes: floatIn, Fn: quantizePerTensorTensorOut},
		{Name: "quantized_decomposed::quantize_per_channel.out", DTypes: floatIn, Fn: quantizePerChannelOut},
		{Name: "quantized_decomposed::quantize_per_token.out", DTypes: floatIn, Fn: quantizePerTokenOut},
		{Name: "quantized_decomposed::dequantize_per_tensor.out", DTypes: quantIn, Fn: dequantizePerTensorOut},
		{Name: "quantized_decomposed::dequantize_per_tensor.Tensor_out", DTypes: quantIn, Fn: dequantizePerTensorTensorOut},
		{Name: "quantized_decomposed::dequantize_per_channel.out", DTypes: quantIn, Fn: dequantizePerChannelOut},
		{Name: "quantized_decomposed::dequantize_per_token.out", DTypes: quantIn, Fn: dequantizePerTokenOut},
		{Name: "quantized_decomposed::mixed_mm.out", DTypes: f32f16, Fn: mixedMMOut},
		{Name: "quantized_decomposed::mixed_linear.out", DTypes: f32f16, Fn: mixedLinearOut},
		{Name: "quantized_decomposed::embedding_byte.out", DTypes: u8i8, Fn: embeddingByteOut},
		{Name: "quantized_decomposed::embedding_byte.dtype_out", DTypes: u8i8, Fn: embeddingByteDtypeOut},
		{Name: "quantized_decomposed::embedding_2bit.out", DTypes: u8, Fn: embedding2BitOut},
		{Name: "quantized_decomposed::embedding_2bit.dtype_out", DTypes: u8, Fn: embedding2BitDtypeOut},
		{Name: "quantized_decomposed::embedding_4bit.out", DTypes: u8, Fn: embedding4BitOut},
		{Name: "quantized_decomposed::embedding_4bit.dtype_out", DTypes: u8, Fn: embedding4BitDtypeOut},
	}
}

// Register adds the quantized operators to r.
func Register(r *executor.Registry) error {
	if err := r.RegisterKernels(Kernels()...); err != nil {
		return fmt.Errorf("kernels/quantized: %w", err)
	}
	return nil
}
