// Package quantized holds the kernels of ExecuTorch's quantized kernel library
// (kernels/quantized, the quantized_decomposed::* operators of its quantized.yaml): the
// quantize and dequantize operators per tensor, per channel and per token, choose_qparams, the
// quantized embeddings (byte, 2-bit and 4-bit), mixed_mm / mixed_linear and the quantized add.
// A program needs them when quantize/dequantize nodes stay outside a delegate, or when it
// uses a quantized embedding (the 8da4w LLM programs' embedding_4bit.dtype_out).
//
// Numerics are the official C++ kernels' (not torch's Python reference where they differ):
// the same float32 (or float64) arithmetic in the same order, the same rounding (nearbyint,
// to nearest even, for quantize and for the zero point of choose_qparams), the same clamping,
// and Half/BFloat16 stores that round to nearest even with NaN made quiet. A NaN or ±Inf
// quantizes as the official kernels' float-to-int64 conversion does on x86-64 (to quant_min),
// so outputs match bit for bit; testdata/cases.json.gz holds the official runtime's answers.
//
// Error model: the official kernels abort the process (ET_CHECK) on most bad arguments, and on
// some read out of bounds (an out-of-range index of the 2/4-bit embeddings, a scale tensor
// shorter than the channel count). Here every such call returns an error wrapping
// executor.ErrInvalidArgument that names the argument, before anything is written. Where the
// official kernel reads a tensor with another argument's element type (embedding_*.out reads
// the scales as the output's type), this package refuses the call instead of reinterpreting
// bytes.
//
// Tensors are read in their memory order, as the official kernels read them: the elementwise
// operators take any dim order shared by input and output; the others require the default
// (contiguous) one.
package quantized
