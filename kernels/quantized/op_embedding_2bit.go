package quantized

import "github.com/etgo/etgo/executor"

// quantized_decomposed::embedding_2bit.out(Tensor weight, Tensor weight_scales, Tensor?
// weight_zero_points, int weight_quant_min, int weight_quant_max, Tensor indices, *, Tensor(a!)
// out): the rows of the quantized weight picked by indices, dequantized into out (indices'
// sizes plus the embedding dim). The scales (and zero points) must have out's type.
func embedding2BitOut(_ *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxEmbedding(args, false)
	if err != nil {
		return err
	}
	return embedding(a, 2)
}

// quantized_decomposed::embedding_2bit.dtype_out(..., Tensor indices, ScalarType? dtype=None, *,
// Tensor(a!) out): the same with scales of any float type; dtype, when given, must be out's.
func embedding2BitDtypeOut(_ *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxEmbedding(args, true)
	if err != nil {
		return err
	}
	return embedding(a, 2)
}
