package quantized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// quantized_decomposed::dequantize_per_channel.out(Tensor input, Tensor scales, Tensor?
// zero_points, int axis, int quant_min, int quant_max, ScalarType dtype, *, ScalarType?
// out_dtype=None, Tensor(a!) out): dequantize_per_tensor with the scale (float64 or float32)
// and zero point (int64; none means 0) of each element's index along axis.
//
// The official kernel has three paths, each with its own arithmetic, and etgo takes the same
// one: an int8 input with out_dtype None or float32 takes the optimized path
// (dequantizeInt8Val; every zero point must then lie in [quant_min, quant_max]); otherwise a
// 1-d input converts the difference to out's type before multiplying by the float32 scale,
// and any other input multiplies in float32 (dequantizeVal).
func dequantizePerChannelOut(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 10); err != nil {
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
	zp, err := unbox.OptTensorArg(args, 2, "zero_points")
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
	outDtype, hasOutDtype, err := optDtypeArg(args, 7, "out_dtype")
	if err != nil {
		return err
	}
	out, err := outArg(args, 8, "out")
	if err != nil {
		return err
	}
	if err := returnSlot(args, out); err != nil {
		return err
	}
	if err := resizeOut(out, 8, "out", in.Sizes()); err != nil {
		return err
	}
	ax, err := axisArg(in, axis, 3)
	if err != nil {
		return err
	}
	return dequantizeChannels(in, in.Sizes(), in.Strides(), ax, sc, zp, qmin, qmax, dtype, outDtype, hasOutDtype, out,
		dequantIdx{4, 6, 7, 8, "out_dtype"})
}

// dequantizeChannels is the official dequantize_per_channel_out on input viewed with sizes and
// strides (the per-token operator views it as a contiguous [tokens, last dim]). The input may
// be in any dim order: the official generic path walks it by its strides and writes each
// result at the same memory offset of out, so out must share the dim order; the optimized path
// is only taken for a contiguous input.
func dequantizeChannels(in *executor.Tensor, sizes, strides []int, axis int, sc, zp *executor.Tensor, qmin, qmax int64,
	dtype, outDtype executor.ScalarType, hasOutDtype bool, out *executor.Tensor, idx dequantIdx) error {
	n := sizes[axis]
	if sc.Numel() != n {
		return unbox.ArgError(1, "scales", "has %d elements for %d channels", sc.Numel(), n)
	}
	var zps []int64
	if zp != nil {
		switch zp.ScalarType() {
		case executor.Int64:
		case executor.Int32:
			// The official kernel accepts int32 zero points, then reads them as int64.
			return unbox.ArgError(2, "zero_points", "is int32; the official kernel reads zero points as int64 (pass int64)")
		default:
			return unbox.ArgError(2, "zero_points", "must be int64, got %s", dtypeName(zp.ScalarType()))
		}
		if zp.Numel() != n {
			return unbox.ArgError(2, "zero_points", "has %d elements for %d channels", zp.Numel(), n)
		}
		zps = longs(zp)
	}
	if err := checkDequantizeArgs(in, qmin, qmax, dtype, outDtype, hasOutDtype, out, idx); err != nil {
		return err
	}
	if err := sameDimOrder(in, out, idx.out, "out"); err != nil {
		return err
	}
	zpOf := func(c int) int64 {
		if zps == nil {
			return 0
		}
		return zps[c]
	}
	// A dense tensor's memory offset i holds the element whose index along axis is
	// (i / stride) % size, whatever the dim order: runs of stride elements share a channel.
	optimized := in.IsContiguous() && in.ScalarType() == executor.Int8 && (!hasOutDtype || outDtype == executor.Float32)
	if optimized {
		if out.ScalarType() != executor.Float32 {
			// The official optimized path writes float32 whatever out's type.
			return unbox.ArgError(idx.out, "out", "is %s; an int8 input without out_dtype is dequantized to float32 (the official kernel writes float32 into it)", dtypeName(out.ScalarType()))
		}
		if in.Numel() == 0 {
			return nil
		}
		for c := range n {
			if z := zpOf(c); z < qmin || z > qmax {
				return unbox.ArgError(2, "zero_points", "zero point %d of channel %d is outside [quant_min %d, quant_max %d]", z, c, qmin, qmax)
			}
		}
		scales, err := scaleValues(sc, 1, "scales")
		if err != nil {
			return err
		}
		dequantTo(in, out, strides[axis], scales, zps, true)
		return nil
	}
	if err := dequantOut(out, idx.out); err != nil {
		return err
	}
	// The generic path reads every channel's scale (checking its type) even when the other
	// dims are empty; the 1-d one reads a scale per element.
	if in.Numel() == 0 && (len(sizes) == 1 || n == 0) {
		return nil
	}
	scales, err := scaleValues(sc, 1, "scales")
	if err != nil {
		return err
	}
	if len(sizes) == 1 {
		qs := quantized(in)
		// static_cast<OUT>(q - zp) * scale: the difference is first converted to out's type.
		switch out.ScalarType() {
		case executor.Float64:
			dst := executor.Data[float64](out)
			for i, q := range qs {
				dst[i] = float64(q-int32(zpOf(i))) * float64(scales[i])
			}
		case executor.Float16:
			dst := executor.Data[uint16](out)
			for i, q := range qs {
				dst[i] = halfBits(halfValue(halfBits(float32(q-int32(zpOf(i))))) * scales[i])
			}
		default:
			dst := executor.Data[float32](out)
			for i, q := range qs {
				dst[i] = float32(q-int32(zpOf(i))) * scales[i]
			}
		}
		return nil
	}
	dequantTo(in, out, strides[axis], scales, zps, false)
	return nil
}
