package quantized

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// smallScale is the official SMALL_SCALE_THRESHOLD (a float32 constant).
const smallScale float32 = 6.1e-5

// checkChooseQParams is the official check of both choose_qparams operators: quant_min <
// quant_max, a float32 input, a float64 scale_out and an int64 zero_point_out.
func checkChooseQParams(in *executor.Tensor, qmin, qmax int64, scaleOut, zpOut *executor.Tensor, idx chooseIdx) error {
	if qmin >= qmax {
		return unbox.ArgError(idx.qmin, "quant_min", "%d is not less than quant_max %d", qmin, qmax)
	}
	if in.ScalarType() != executor.Float32 {
		return unbox.ArgError(0, "input", "must be float32, got %s", dtypeName(in.ScalarType()))
	}
	if scaleOut.ScalarType() != executor.Float64 {
		return unbox.ArgError(idx.scale, "scale_out", "must be float64, got %s", dtypeName(scaleOut.ScalarType()))
	}
	if zpOut.ScalarType() != executor.Int64 {
		return unbox.ArgError(idx.scale+1, "zero_point_out", "must be int64, got %s", dtypeName(zpOut.ScalarType()))
	}
	return nil
}

type chooseIdx struct{ qmin, scale int }

// minMax is the official vec_minf / vec_maxf (std::min_element / std::max_element): the first
// element, replaced by every later one that compares less (greater). A NaN first element
// stays; a later NaN never replaces.
func minMax(x []float32) (lo, hi float32) {
	lo, hi = x[0], x[0]
	for _, v := range x[1:] {
		if v < lo {
			lo = v
		}
		if hi < v {
			hi = v
		}
	}
	return lo, hi
}

// scaleAndZeroPoint is the official calculate_scale_and_zero_point on a [min, max] range with
// the int32 quant range: the range widened to hold 0, the scale (float64) from it, a zero or
// too-small scale replaced, the zero point from the end with the smaller error, nudged into
// the range and rounded to nearest even. ok is false where the official kernel aborts (the
// scale is not > 0: a NaN input).
func scaleAndZeroPoint(lo, hi float32, qmin, qmax int32) (scale float64, zp int32, ok bool) {
	// std::min(min, 0.f) keeps min unless 0 < min, std::max(max, 0.f) keeps max unless max < 0:
	// a NaN stays.
	if 0 < lo {
		lo = 0
	}
	if hi < 0 {
		hi = 0
	}
	scale = (float64(hi) - float64(lo)) / float64(qmax-qmin)
	if float32(scale) == 0 || math.IsInf(float64(1/float32(scale)), 0) {
		scale = 0.1
	}
	if !(scale > 0) {
		return 0, 0, false
	}
	if scale < float64(smallScale) {
		org := float32(scale)
		scale = float64(smallScale)
		switch {
		case lo == 0:
			hi = smallScale * float32(qmax-qmin)
		case hi == 0:
			lo = -smallScale * float32(qmax-qmin)
		default:
			amp := smallScale / org
			lo *= amp
			hi *= amp
		}
	}
	fromMin := float64(qmin) - float64(lo)/scale
	fromMax := float64(qmax) - float64(hi)/scale
	errMin := float64(abs32(qmin)) - math.Abs(float64(lo)/scale)
	errMax := float64(abs32(qmax)) - math.Abs(float64(hi)/scale)
	initial := fromMax
	if errMin < errMax {
		initial = fromMin
	}
	switch {
	case initial < float64(qmin):
		zp = qmin
	case initial > float64(qmax):
		zp = qmax
	default:
		// nearbyint, then x86's conversion to int32: a NaN (from an infinite input) is
		// math.MinInt32.
		r := math.RoundToEven(float64(float32(initial)))
		zp = math.MinInt32
		if r >= math.MinInt32 && r <= math.MaxInt32 {
			zp = int32(r)
		}
	}
	return scale, zp, true
}

// abs32 is std::abs on an int32 (the most negative value stays, as it does on x86).
func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}
