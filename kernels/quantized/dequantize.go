package quantized

import "github.com/etgo/etgo/executor"

// checkDequantizeArgs is the official check_dequantize_per_tensor_args: a quantized input of
// the dtype argument's type, out of out_dtype's type when given, quant_min <= quant_max.
func checkDequantizeArgs(in *executor.Tensor, qmin, qmax int64, dtype executor.ScalarType, outDtype executor.ScalarType, hasOutDtype bool, out *executor.Tensor, idx dequantIdx) error {
	if _, _, ok := quantRange(in.ScalarType()); !ok {
		return argErr(0, "input", "must be uint8, int8, uint16, int16 or int32, got %s", dtypeName(in.ScalarType()))
	}
	if in.ScalarType() != dtype {
		return argErr(idx.dtype, "dtype", "%s is not the input's %s", dtypeName(dtype), dtypeName(in.ScalarType()))
	}
	if hasOutDtype && out.ScalarType() != outDtype {
		return argErr(idx.outDtype, idx.outDtypeName, "%s does not match out's %s", dtypeName(outDtype), dtypeName(out.ScalarType()))
	}
	if qmin > qmax {
		return argErr(idx.qmin, "quant_min", "%d is greater than quant_max %d", qmin, qmax)
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
	return argErr(i, "out", "must be float32, float64 or float16, got %s", dtypeName(out.ScalarType()))
}

// dequantStore writes float values into a Float32, Float64 or Float16 out (memory order).
type dequantStore struct {
	f64 []float64
	fs  floatStore
}

func newDequantStore(t *executor.Tensor) dequantStore {
	if t.ScalarType() == executor.Float64 {
		return dequantStore{f64: executor.Data[float64](t)}
	}
	return dequantStore{fs: newFloatStore(t)}
}

// set stores a float32 result (exact in float64).
func (s dequantStore) set(i int, v float32) {
	if s.f64 != nil {
		s.f64[i] = float64(v)
		return
	}
	s.fs.set(i, v)
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
	return nil, argErr(i, name, "must be float64 or float32, got %s", dtypeName(t.ScalarType()))
}
