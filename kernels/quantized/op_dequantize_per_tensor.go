package quantized

import "github.com/etgo/etgo/executor"

// quantized_decomposed::dequantize_per_tensor.out(Tensor input, float scale, int zero_point,
// int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None, Tensor(a!)
// out): out = (input - zero_point) · float32(scale), see dequantizeVal; out is float32, float64
// or float16 (out_dtype, when given, must be its type).
func dequantizePerTensorOut(_ *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxDequantizePerTensorOut(args)
	if err != nil {
		return err
	}
	return dequantizePerTensor(args, a.Input, a.Scale, a.ZeroPoint, a.QuantMin, a.QuantMax, a.Dtype, a.OutDtype, a.Out)
}

// quantized_decomposed::dequantize_per_tensor.Tensor_out(Tensor input, Tensor scale, Tensor
// zero_point, ...): the same with a one-element float64 scale and int64 zero point.
func dequantizePerTensorTensorOut(_ *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxDequantizePerTensorTensorOut(args)
	if err != nil {
		return err
	}
	scale, zp, err := scalarQParams(a.Scale, a.ZeroPoint)
	if err != nil {
		return err
	}
	return dequantizePerTensor(args, a.Input, scale, zp, a.QuantMin, a.QuantMax, a.Dtype, a.OutDtype, a.Out)
}

// dequantizePerTensor is both overloads once the scale and zero point are numbers; dtypeN and
// outDtypeN are the unboxed dtype (5) and out_dtype (6) arguments, out the out argument (7).
func dequantizePerTensor(args []*executor.EValue, in *executor.Tensor, scale float64, zp, qmin, qmax, dtypeN int64,
	outDtypeN optional[int64], out *executor.Tensor) error {
	dtype, err := dtypeOf(dtypeN, 5, "dtype")
	if err != nil {
		return err
	}
	outDtype, hasOutDtype, err := optDtypeOf(outDtypeN, 6, "out_dtype")
	if err != nil {
		return err
	}
	if err := writable(out, 7, "out"); err != nil {
		return err
	}
	if err := returnSlot(args, out); err != nil {
		return err
	}
	if err := resizeOut(out, 7, "out", in.Sizes()); err != nil {
		return err
	}
	if err := checkDequantizeArgs(in, qmin, qmax, dtype, outDtype, hasOutDtype, out, dequantIdx{3, 5, 6, 7, "out_dtype"}); err != nil {
		return err
	}
	if err := dequantOut(out, 7); err != nil {
		return err
	}
	if err := sameDimOrder(in, out, 7, "out"); err != nil {
		return err
	}
	dequantTo(in, out, in.Numel(), []float32{float32(scale)}, []int64{zp}, false)
	return nil
}
