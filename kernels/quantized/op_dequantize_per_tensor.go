package quantized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// quantized_decomposed::dequantize_per_tensor.out(Tensor input, float scale, int zero_point,
// int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None, Tensor(a!)
// out): out = (input - zero_point) · float32(scale), see dequantizeVal; out is float32, float64
// or float16 (out_dtype, when given, must be its type).
func dequantizePerTensorOut(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 9); err != nil {
		return err
	}
	in, err := unbox.TensorArg(args, 0, "input")
	if err != nil {
		return err
	}
	scale, err := unbox.DoubleArg(args, 1, "scale")
	if err != nil {
		return err
	}
	zp, err := unbox.IntArg(args, 2, "zero_point")
	if err != nil {
		return err
	}
	return dequantizePerTensor(args, in, scale, zp)
}

// quantized_decomposed::dequantize_per_tensor.Tensor_out(Tensor input, Tensor scale, Tensor
// zero_point, ...): the same with a one-element float64 scale and int64 zero point.
func dequantizePerTensorTensorOut(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 9); err != nil {
		return err
	}
	in, err := unbox.TensorArg(args, 0, "input")
	if err != nil {
		return err
	}
	scale, zp, err := scalarQParams(args)
	if err != nil {
		return err
	}
	return dequantizePerTensor(args, in, scale, zp)
}

func dequantizePerTensor(args []*executor.EValue, in *executor.Tensor, scale float64, zp int64) error {
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
	outDtype, hasOutDtype, err := optDtypeArg(args, 6, "out_dtype")
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
