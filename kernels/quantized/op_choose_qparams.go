package quantized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// quantized_decomposed::choose_qparams.Tensor_out(Tensor input, int quant_min, int quant_max,
// float eps, ScalarType dtype, *, Tensor(a!) scale_out, Tensor(b!) zero_point_out): the
// asymmetric scale and zero point that map the float32 input's [min, max] (widened to hold 0)
// onto [quant_min, quant_max] (see scaleAndZeroPoint), into one-element float64 and int64
// outs. eps and dtype are not used, as in the official kernel; quant_min and quant_max are
// truncated to int32 as it truncates them.
func chooseQParamsTensorOut(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 8); err != nil {
		return err
	}
	in, err := unbox.TensorArg(args, 0, "input")
	if err != nil {
		return err
	}
	qmin, err := unbox.IntArg(args, 1, "quant_min")
	if err != nil {
		return err
	}
	qmax, err := unbox.IntArg(args, 2, "quant_max")
	if err != nil {
		return err
	}
	if _, err := unbox.DoubleArg(args, 3, "eps"); err != nil {
		return err
	}
	if _, err := dtypeArg(args, 4, "dtype"); err != nil {
		return err
	}
	scaleOut, err := outArg(args, 5, "scale_out")
	if err != nil {
		return err
	}
	zpOut, err := outArg(args, 6, "zero_point_out")
	if err != nil {
		return err
	}
	if err := returnSlot(args, scaleOut, zpOut); err != nil {
		return err
	}
	if err := checkChooseQParams(in, qmin, qmax, scaleOut, zpOut, chooseIdx{1, 5}); err != nil {
		return err
	}
	if scaleOut.Numel() != 1 {
		return unbox.ArgError(5, "scale_out", "must have one element, got sizes %v", scaleOut.Sizes())
	}
	if zpOut.Numel() != 1 {
		return unbox.ArgError(6, "zero_point_out", "must have one element, got sizes %v", zpOut.Sizes())
	}
	if in.Numel() == 0 {
		// The official kernel dereferences the end of an empty range.
		return unbox.ArgError(0, "input", "is empty; it has no range to choose parameters for")
	}
	lo, hi := minMax(executor.Data[float32](in))
	scale, zp, ok := scaleAndZeroPoint(lo, hi, int32(qmin), int32(qmax))
	if !ok {
		return unbox.ArgError(0, "input", "has range [%v, %v], which gives no scale > 0", lo, hi)
	}
	doubles(scaleOut)[0] = scale
	longs(zpOut)[0] = int64(zp)
	return nil
}
