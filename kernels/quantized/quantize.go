package quantized

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// quantRange is the range a quantized type holds, which quant_min and quant_max must lie in
// (the official check_quantize_per_tensor_args; Int64 is not a quantized type there).
func quantRange(t executor.ScalarType) (lo, hi int64, ok bool) {
	switch t {
	case executor.Uint8:
		return 0, math.MaxUint8, true
	case executor.Int8:
		return math.MinInt8, math.MaxInt8, true
	case executor.Uint16:
		return 0, math.MaxUint16, true
	case executor.Int16:
		return math.MinInt16, math.MaxInt16, true
	case executor.Int32:
		return math.MinInt32, math.MaxInt32, true
	}
	return 0, 0, false
}

// checkQuantizeArgs is the official check_quantize_per_tensor_args: a floating input, out of
// the dtype argument's type, a quantized type, and quant_min/quant_max within it (quant_min >
// quant_max is not refused: the clamp then gives quant_max).
func checkQuantizeArgs(in *executor.Tensor, qmin, qmax int64, dtype executor.ScalarType, out *executor.Tensor, idx quantIdx) error {
	switch in.ScalarType() {
	case executor.Float32, executor.Float16, executor.Float64:
	default:
		// BFloat16 passes the official floating check, then no branch computes it.
		return unbox.ArgError(0, "input", "must be float32, float16 or float64, got %s", dtypeName(in.ScalarType()))
	}
	if out.ScalarType() != dtype {
		return unbox.ArgError(idx.out, "out", "is %s, not the dtype argument's %s", dtypeName(out.ScalarType()), dtypeName(dtype))
	}
	lo, hi, ok := quantRange(dtype)
	if !ok {
		return unbox.ArgError(idx.dtype, "dtype", "%s is not a quantized type (uint8, int8, uint16, int16, int32)", dtypeName(dtype))
	}
	if qmin < lo {
		return unbox.ArgError(idx.qmin, "quant_min", "%d is below %s's %d", qmin, dtypeName(dtype), lo)
	}
	if qmax > hi {
		return unbox.ArgError(idx.qmin+1, "quant_max", "%d is above %s's %d", qmax, dtypeName(dtype), hi)
	}
	return nil
}

// quantIdx are the schema positions of the arguments the checks name.
type quantIdx struct{ qmin, dtype, out int }

// quantizeVal finishes the official quantize_val on a product p = value·(1/scale): rounded to
// nearest even (nearbyint), the zero point (truncated to int32, as the kernel casts it) added
// in float32, converted to int64 and clamped, max with quant_min first, then min with
// quant_max. The conversion is x86's: a NaN or a sum outside int64 becomes math.MinInt64, so
// NaN and ±Inf quantize to quant_min (the oracle runs on x86-64; Go's own conversion of such
// a float is not specified).
func quantizeVal(p float32, zp int64, qmin, qmax int64) int64 {
	s := float32(int32(zp)) + float32(math.RoundToEven(float64(p)))
	q := int64(math.MinInt64)
	if s >= -(1<<63) && s < 1<<63 {
		q = int64(s)
	}
	return min(max(q, qmin), qmax)
}

// invScale is the official 1.0f / static_cast<float>(scale).
func invScale(scale float64) float32 { return 1 / float32(scale) }

// storeInts writes int64 values into an integer tensor (memory order), truncated to its width
// as a C++ cast does.
func storeInts(t *executor.Tensor, v []int64) {
	switch t.ScalarType() {
	case executor.Uint8:
		d := executor.Data[uint8](t)
		for i, x := range v {
			d[i] = uint8(x)
		}
	case executor.Int8:
		d := executor.Data[int8](t)
		for i, x := range v {
			d[i] = int8(x)
		}
	case executor.Uint16:
		d := executor.Data[uint16](t)
		for i, x := range v {
			d[i] = uint16(x)
		}
	case executor.Int16:
		d := executor.Data[int16](t)
		for i, x := range v {
			d[i] = int16(x)
		}
	case executor.Int32:
		d := executor.Data[int32](t)
		for i, x := range v {
			d[i] = int32(x)
		}
	case executor.Int64:
		copy(executor.Data[int64](t), v)
	default:
		panic("quantized: storeInts into a " + dtypeName(t.ScalarType()) + " tensor")
	}
}

// quantized reads a quantized tensor's elements (uint8, int8, uint16, int16, int32; memory
// order) as int32, as C++ promotes them.
func quantized(t *executor.Tensor) []int32 {
	out := make([]int32, t.Numel())
	switch t.ScalarType() {
	case executor.Uint8:
		for i, x := range executor.Data[uint8](t) {
			out[i] = int32(x)
		}
	case executor.Int8:
		for i, x := range executor.Data[int8](t) {
			out[i] = int32(x)
		}
	case executor.Uint16:
		for i, x := range executor.Data[uint16](t) {
			out[i] = int32(x)
		}
	case executor.Int16:
		for i, x := range executor.Data[int16](t) {
			out[i] = int32(x)
		}
	case executor.Int32:
		copy(out, executor.Data[int32](t))
	default:
		panic("quantized: quantized values of a " + dtypeName(t.ScalarType()) + " tensor")
	}
	return out
}

// quantizeTo quantizes the whole input into out (resized to the input's sizes by the caller),
// in memory order, in blocks of block elements that share a channel: block b takes channel
// b % len(scales), as the official kernels index channels ((i / block) % channels).
func quantizeTo(in, out *executor.Tensor, scales []float64, zps []int64, block int, qmin, qmax int64) {
	switch out.ScalarType() {
	case executor.Uint8:
		quantizeLoop(executor.Data[uint8](out), in, scales, zps, block, qmin, qmax)
	case executor.Int8:
		quantizeLoop(executor.Data[int8](out), in, scales, zps, block, qmin, qmax)
	case executor.Uint16:
		quantizeLoop(executor.Data[uint16](out), in, scales, zps, block, qmin, qmax)
	case executor.Int16:
		quantizeLoop(executor.Data[int16](out), in, scales, zps, block, qmin, qmax)
	case executor.Int32:
		quantizeLoop(executor.Data[int32](out), in, scales, zps, block, qmin, qmax)
	default:
		panic("quantized: quantize into a " + dtypeName(out.ScalarType()) + " tensor")
	}
}

// quantizeLoop forms each product value·(1/scale) as the official quantize_val does — float32
// and float16 elements multiply in float32; a float64 element multiplies in float64 and the
// product is rounded to float32 — and finishes it with quantizeVal, truncated to T as a C++
// cast does.
func quantizeLoop[T uint8 | int8 | uint16 | int16 | int32](dst []T, in *executor.Tensor, scales []float64, zps []int64, block int, qmin, qmax int64) {
	n := len(dst)
	block = max(block, 1)
	var (
		f32 []float32
		f64 []float64
		f16 []uint16
	)
	switch in.ScalarType() {
	case executor.Float32:
		f32 = executor.Data[float32](in)
	case executor.Float64:
		f64 = executor.Data[float64](in)
	default:
		f16 = executor.Data[uint16](in)
	}
	for start := 0; start < n; start += block {
		c := (start / block) % len(scales)
		inv, zp := invScale(scales[c]), zps[c]
		end := min(start+block, n)
		switch {
		case f32 != nil:
			for i := start; i < end; i++ {
				dst[i] = T(quantizeVal(inv*f32[i], zp, qmin, qmax))
			}
		case f64 != nil:
			for i := start; i < end; i++ {
				dst[i] = T(quantizeVal(float32(float64(inv)*f64[i]), zp, qmin, qmax))
			}
		default:
			for i := start; i < end; i++ {
				dst[i] = T(quantizeVal(inv*halfValue(f16[i]), zp, qmin, qmax))
			}
		}
	}
}

// blockAfter is the number of elements of contiguous sizes that share an index along axis.
func blockAfter(sizes []int, axis int) int {
	block := 1
	for _, s := range sizes[axis+1:] {
		block *= s
	}
	return block
}

// axisArg normalizes a per-channel axis as the official tensor_has_dim / nonzero_dim do; a
// 0-d input has no channel to index and is refused (the official kernel aborts on size(0)).
func axisArg(in *executor.Tensor, axis int64, i int) (int, error) {
	r := int64(in.Dim())
	if r == 0 {
		return 0, unbox.ArgError(0, "input", "a per-channel operator needs at least one dimension, got a 0-d tensor")
	}
	if axis < -r || axis >= r {
		return 0, unbox.ArgError(i, "axis", "%d is out of range for a %d-d input", axis, r)
	}
	if axis < 0 {
		axis += r
	}
	return int(axis), nil
}

// doubles reads a float64 tensor's elements.
func doubles(t *executor.Tensor) []float64 { return executor.Data[float64](t) }

// longs reads an int64 tensor's elements.
func longs(t *executor.Tensor) []int64 { return executor.Data[int64](t) }
