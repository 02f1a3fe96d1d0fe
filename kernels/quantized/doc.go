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
// some read or write out of bounds: an out-of-range index of the 2/4-bit embeddings, int32 zero
// points that dequantize_per_channel reads as int64, an int8 dequantize_per_channel without
// out_dtype into a non-float32 out (it writes float32), an empty choose_qparams input. Here
// every such call returns an error wrapping executor.ErrInvalidArgument that names the
// argument, before any element is written (an out may already have been resized, as the
// official kernels resize first); a first tensor argument of a type the official kernel has no
// branch for is refused at method load (executor.ErrOperatorMissing, from Kernel.DTypes).
// Where the official kernel reads a tensor with another argument's element type
// (embedding_*.out reads the scales as the output's type), this package refuses the call
// instead of reinterpreting bytes. testdata/cases.json.gz records which refusals are the
// official kernel's and which are etgo's alone.
//
// Tensors are read in their memory order, as the official kernels read them: the elementwise
// operators and the per-channel ones take any dim order shared by input and output (the
// per-channel dequantize finds each element's channel by its strides, the per-channel quantize
// by its offset as if contiguous, each as the official kernel does); the per-token, embedding
// and matmul operators require the default (contiguous) one.
package quantized
