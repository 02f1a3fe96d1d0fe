package quantized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// quantized_decomposed::quantize_per_token.out(Tensor input, Tensor scales, Tensor zero_points,
// int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out): quantize_per_channel of
// input viewed as [tokens, last dim] along axis 0 — one float64 scale and int64 zero point per
// token (scales of any shape with that many elements).
func quantizePerTokenOut(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 8); err != nil {
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
	out, err := outArg(args, 6, "out")
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
	if err := resizeOut(out, 6, "out", in.Sizes()); err != nil {
		return err
	}
	if err := channelQParams(tokens, sc, zp, 1, 2, "scales", "zero_points"); err != nil {
		return err
	}
	if err := checkQuantizeArgs(in, qmin, qmax, dtype, out, quantIdx{3, 5, 6}); err != nil {
		return err
	}
	if err := contiguous(out, 6, "out"); err != nil {
		return err
	}
	quantizeTo(in, out, doubles(sc), longs(zp), last, qmin, qmax)
	return nil
}

// tokenShape is the per-token view of input: the product of all dims but the last, and the
// last. The official kernels view the input's memory that way whatever its dim order, so the
// input must be contiguous; a 0-d input has no last dim (the official kernel reads past it).
func tokenShape(in *executor.Tensor) (tokens, last int, err error) {
	if in.Dim() == 0 {
		return 0, 0, unbox.ArgError(0, "input", "a per-token operator needs at least one dimension, got a 0-d tensor")
	}
	if err := contiguous(in, 0, "input"); err != nil {
		return 0, 0, err
	}
	tokens = 1
	for _, s := range in.Sizes()[:in.Dim()-1] {
		tokens *= s
	}
	return tokens, in.Size(in.Dim() - 1), nil
}
