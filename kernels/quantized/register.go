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
	return []executor.Kernel{
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
