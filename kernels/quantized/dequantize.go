package quantized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// checkDequantizeArgs is the official check_dequantize_per_tensor_args: a quantized input of
// the dtype argument's type, out of out_dtype's type when given, quant_min <= quant_max.
func checkDequantizeArgs(in *executor.Tensor, qmin, qmax int64, dtype executor.ScalarType, outDtype executor.ScalarType, hasOutDtype bool, out *executor.Tensor, idx dequantIdx) error {
	if _, _, ok := quantRange(in.ScalarType()); !ok {
		return unbox.ArgError(0, "input", "must be uint8, int8, uint16, int16 or int32, got %s", dtypeName(in.ScalarType()))
	}
	if in.ScalarType() != dtype {
		return unbox.ArgError(idx.dtype, "dtype", "%s is not the input's %s", dtypeName(dtype), dtypeName(in.ScalarType()))
	}
	if hasOutDtype && out.ScalarType() != outDtype {
		return unbox.ArgError(idx.outDtype, idx.outDtypeName, "%s does not match out's %s", dtypeName(outDtype), dtypeName(out.ScalarType()))
	}
	if qmin > qmax {
		return unbox.ArgError(idx.qmin, "quant_min", "%d is greater than quant_max %d", qmin, qmax)
	}
	return nil
}

// dequantIdx are the schema positions of the arguments the checks name.
type dequantIdx struct {
	qmin, dtype, outDtype, out int
	outDtypeName               string
}

// dequantOut checks out's type: the official kernels compute float32, float64 and float16.
func dequantOut(out *executor.Tensor, i int) error {
	switch out.ScalarType() {
	case executor.Float32, executor.Float64, executor.Float16:
		return nil
	}
	return unbox.ArgError(i, "out", "must be float32, float64 or float16, got %s", dtypeName(out.ScalarType()))
}

// dequantizeVal is the official generic dequantization of one element: the difference with
// the zero point (truncated to int32) in int32 arithmetic (wrapping, as it does on x86),
// converted to float32, times the float32 scale.
func dequantizeVal(q int32, zp int64, scale float32) float32 {
	return float32(q-int32(zp)) * scale
}

// dequantizeInt8Val is the official optimized per-channel path's (int8 input, float32 out):
// the difference with the whole int64 zero point, times the float32 scale in float64, rounded
// to float32.
func dequantizeInt8Val(q int32, zp int64, scale float32) float32 {
	return float32(float64(int64(q)-zp) * float64(scale))
}

// scaleValues reads per-channel scales, float64 or float32, as the official get_scale does:
// rounded to float32.
func scaleValues(t *executor.Tensor, i int, name string) ([]float32, error) {
	switch t.ScalarType() {
	case executor.Float64:
		d := doubles(t)
		out := make([]float32, len(d))
		for k, v := range d {
			out[k] = float32(v)
		}
		return out, nil
	case executor.Float32:
		return executor.Data[float32](t), nil
	}
	return nil, unbox.ArgError(i, name, "must be float64 or float32, got %s", dtypeName(t.ScalarType()))
}

// dequantTo dequantizes the input into out (a float32, float64 or float16 tensor of the same
// element count) in memory order, in blocks of block elements that share a channel (block b
// takes channel b % len(scales)); zps nil means zero points of 0. wide selects the official
// optimized per-channel arithmetic (dequantizeInt8Val, float32 out only), otherwise the generic
// one (dequantizeVal).
func dequantTo(in, out *executor.Tensor, block int, scales []float32, zps []int64, wide bool) {
	switch in.ScalarType() {
	case executor.Uint8:
		dequantLoop(executor.Data[uint8](in), out, block, scales, zps, wide)
	case executor.Int8:
		dequantLoop(executor.Data[int8](in), out, block, scales, zps, wide)
	case executor.Uint16:
		dequantLoop(executor.Data[uint16](in), out, block, scales, zps, wide)
	case executor.Int16:
		dequantLoop(executor.Data[int16](in), out, block, scales, zps, wide)
	case executor.Int32:
		dequantLoop(executor.Data[int32](in), out, block, scales, zps, wide)
	default:
		panic("quantized: dequantize a " + dtypeName(in.ScalarType()) + " tensor")
	}
}

func dequantLoop[Q uint8 | int8 | uint16 | int16 | int32](src []Q, out *executor.Tensor, block int, scales []float32, zps []int64, wide bool) {
	var (
		f32 []float32
		f64 []float64
		f16 []uint16
	)
	switch out.ScalarType() {
	case executor.Float32:
		f32 = executor.Data[float32](out)
	case executor.Float64:
		f64 = executor.Data[float64](out)
	default:
		f16 = executor.Data[uint16](out)
	}
	block = max(block, 1)
	for start := 0; start < len(src); start += block {
		c := (start / block) % len(scales)
		s := scales[c]
		var zp int64
		if zps != nil {
			zp = zps[c]
		}
		end := min(start+block, len(src))
		switch {
		case wide:
			for i := start; i < end; i++ {
				f32[i] = dequantizeInt8Val(int32(src[i]), zp, s)
			}
		case f32 != nil:
			for i := start; i < end; i++ {
				f32[i] = dequantizeVal(int32(src[i]), zp, s)
			}
		case f64 != nil:
			for i := start; i < end; i++ {
				f64[i] = float64(dequantizeVal(int32(src[i]), zp, s))
			}
		default:
			for i := start; i < end; i++ {
				f16[i] = halfBits(dequantizeVal(int32(src[i]), zp, s))
			}
		}
	}
}
