package quantized

import "github.com/etgo/etgo/executor"

// quantized_decomposed::embedding_byte.out(Tensor weight, Tensor weight_scales, Tensor?
// weight_zero_points, int weight_quant_min, int weight_quant_max, Tensor indices, *, Tensor(a!)
// out): the rows of the quantized weight picked by indices, dequantized into out (indices'
// sizes plus the embedding dim). The scales (and zero points) must have out's type.
func embeddingByteOut(_ *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxEmbedding(args, false)
	if err != nil {
		return err
	}
	return embedding(a, 8)
}

// quantized_decomposed::embedding_byte.dtype_out(..., Tensor indices, ScalarType? dtype=None, *,
// Tensor(a!) out): the same with scales of any float type; dtype, when given, must be out's.
func embeddingByteDtypeOut(_ *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxEmbedding(args, true)
	if err != nil {
		return err
	}
	return embedding(a, 8)
}
