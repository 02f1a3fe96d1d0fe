package quantized

import "github.com/etgo/etgo/executor"

// quantized_decomposed::dequantize_per_token.out(Tensor input, Tensor scales, Tensor
// zero_points, int quant_min, int quant_max, ScalarType dtype, ScalarType output_dtype, *,
// Tensor(a!) out): dequantize_per_channel of input viewed as [tokens, last dim] along axis 0,
// one scale and zero point per token; output_dtype must be out's type.
func dequantizePerTokenOut(_ *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxDequantizePerTokenOut(args)
	if err != nil {
		return err
	}
	in, sc, zp, qmin, qmax, out := a.Input, a.Scales, a.ZeroPoints, a.QuantMin, a.QuantMax, a.Out
	dtype, err := dtypeOf(a.Dtype, 5, "dtype")
	if err != nil {
		return err
	}
	outDtype, err := dtypeOf(a.OutputDtype, 6, "output_dtype")
	if err != nil {
		return err
	}
	if err := writable(out, 7, "out"); err != nil {
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
