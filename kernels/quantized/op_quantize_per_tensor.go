package quantized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// quantized_decomposed::quantize_per_tensor.out(Tensor input, float scale, int zero_point, int
// quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out): out = clamp(nearbyint(input
// · (1/scale)) + zero_point, quant_min, quant_max) as dtype (see quantizeVal for the exact
// arithmetic). input is float32, float16 or float64.
func quantizePerTensorOut(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 8); err != nil {
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
	return quantizePerTensor(args, in, scale, zp)
}

// quantized_decomposed::quantize_per_tensor.Tensor_out(Tensor input, Tensor scale, Tensor
// zero_point, ...): the same with the scale a one-element float64 tensor and the zero point a
// one-element int64 tensor.
func quantizePerTensorTensorOut(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 8); err != nil {
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
	return quantizePerTensor(args, in, scale, zp)
}

// scalarQParams reads the one-element scale (float64) and zero point (int64) tensors of the
// .Tensor_out overloads, arguments 1 and 2.
func scalarQParams(args []*executor.EValue) (float64, int64, error) {
	s, err := unbox.TensorArg(args, 1, "scale")
	if err != nil {
		return 0, 0, err
	}
	z, err := unbox.TensorArg(args, 2, "zero_point")
	if err != nil {
		return 0, 0, err
	}
	if s.ScalarType() != executor.Float64 {
		return 0, 0, unbox.ArgError(1, "scale", "must be a float64 tensor, got %s", dtypeName(s.ScalarType()))
	}
	if z.ScalarType() != executor.Int64 {
		return 0, 0, unbox.ArgError(2, "zero_point", "must be an int64 tensor, got %s", dtypeName(z.ScalarType()))
	}
	if s.Numel() != 1 {
		return 0, 0, unbox.ArgError(1, "scale", "must have one element, got sizes %v", s.Sizes())
	}
	if z.Numel() != 1 {
		return 0, 0, unbox.ArgError(2, "zero_point", "must have one element, got sizes %v", z.Sizes())
	}
	return doubles(s)[0], longs(z)[0], nil
}

func quantizePerTensor(args []*executor.EValue, in *executor.Tensor, scale float64, zp int64) error {
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
	if err := resizeOut(out, 6, "out", in.Sizes()); err != nil {
		return err
	}
	if err := checkQuantizeArgs(in, qmin, qmax, dtype, out, quantIdx{3, 5, 6}); err != nil {
		return err
	}
	if err := sameDimOrder(in, out, 6, "out"); err != nil {
		return err
	}
	quantizeTo(in, out, []float64{scale}, []int64{zp}, in.Numel(), qmin, qmax)
	return nil
}
