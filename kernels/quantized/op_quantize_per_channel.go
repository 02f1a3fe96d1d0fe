package quantized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// quantized_decomposed::quantize_per_channel.out(Tensor input, Tensor scales, Tensor
// zero_points, int axis, int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out):
// quantize_per_tensor with the scale (float64) and zero point (int64) of each element's index
// along axis; scales and zero_points have input.size(axis) elements.
func quantizePerChannelOut(_ *executor.KernelContext, args []*executor.EValue) error {
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
	axis, err := unbox.IntArg(args, 3, "axis")
	if err != nil {
		return err
	}
	qmin, err := unbox.IntArg(args, 4, "quant_min")
	if err != nil {
		return err
	}
	qmax, err := unbox.IntArg(args, 5, "quant_max")
	if err != nil {
		return err
	}
	dtype, err := dtypeArg(args, 6, "dtype")
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
	ax, err := axisArg(in, axis, 3)
	if err != nil {
		return err
	}
	if err := channelQParams(in.Size(ax), sc, zp, 1, 2, "scales", "zero_points"); err != nil {
		return err
	}
	if err := checkQuantizeArgs(in, qmin, qmax, dtype, out, quantIdx{4, 6, 7}); err != nil {
		return err
	}
	if err := sameDimOrder(in, out, 7, "out"); err != nil {
		return err
	}
	// The official kernel finds an element's channel from its memory offset as if the input
	// were contiguous, whatever its dim order; etgo does the same, so that a channels-last input
	// gets the official (if surprising) parameters.
	quantizeTo(in, out, doubles(sc), longs(zp), blockAfter(in.Sizes(), ax), qmin, qmax)
	return nil
}

// channelQParams checks the float64 scales and int64 zero points of n channels, in the
// official order.
func channelQParams(n int, sc, zp *executor.Tensor, si, zi int, sname, zname string) error {
	if sc.ScalarType() != executor.Float64 {
		return unbox.ArgError(si, sname, "must be float64, got %s", dtypeName(sc.ScalarType()))
	}
	if sc.Numel() != n {
		return unbox.ArgError(si, sname, "has %d elements for %d channels", sc.Numel(), n)
	}
	if zp.ScalarType() != executor.Int64 {
		return unbox.ArgError(zi, zname, "must be int64, got %s", dtypeName(zp.ScalarType()))
	}
	if zp.Numel() != n {
		return unbox.ArgError(zi, zname, "has %d elements for %d channels", zp.Numel(), n)
	}
	return nil
}
