package quantized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// quantized_decomposed::dequantize_per_token.out(Tensor input, Tensor scales, Tensor
// zero_points, int quant_min, int quant_max, ScalarType dtype, ScalarType output_dtype, *,
// Tensor(a!) out): dequantize_per_channel of input viewed as [tokens, last dim] along axis 0,
// one scale and zero point per token; output_dtype must be out's type.
func dequantizePerTokenOut(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 9); err != nil {
		return err
	}
	in, err := unbox.TensorArg(args, 0, "input")
	if err != nil {
		return err
	}
	sc, err := unbox.TensorArg(args, 1, "scales")
	if err != nil {
		return err
	}
	zp, err := unbox.TensorArg(args, 2, "zero_points")
	if err != nil {
		return err
	}
	qmin, err := unbox.IntArg(args, 3, "quant_min")
	if err != nil {
		return err
	}
	qmax, err := unbox.IntArg(args, 4, "quant_max")
	if err != nil {
		return err
	}
	dtype, err := dtypeArg(args, 5, "dtype")
	if err != nil {
		return err
	}
	outDtype, err := dtypeArg(args, 6, "output_dtype")
	if err != nil {
		return err
	}
	out, err := outArg(args, 7, "out")
	if err != nil {
		return err
	}
	if err := returnSlot(args, out); err != nil {
		return err
	}
	tokens, last, err := tokenShape(in)
	if err != nil {
		return err
	}
	if err := resizeOut(out, 7, "out", in.Sizes()); err != nil {
		return err
	}
	return dequantizeChannels(in, []int{tokens, last}, []int{last, 1}, 0, sc, zp, qmin, qmax, dtype, outDtype, true, out,
		dequantIdx{3, 5, 6, 7, "output_dtype"})
}
