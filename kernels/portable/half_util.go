package portable

import (
	"math"

	"github.com/x448/float16"

	"github.com/etgo/etgo/executor"
)

// Half-precision arithmetic as the official portable kernels do it. A kernel templated on CTYPE
// runs c10::Half and c10::BFloat16 through their operators, which widen both operands to
// float, compute, and round the result back to half: every product, every partial sum of an
// accumulation, every scaling is rounded. Kernels that reproduce it compute in float32 and pass
// each intermediate through the dtype's rounding function.

// halfRounder returns the rounding of a float32 to dt (Float16 or BFloat16), widened back, and
// whether dt is one of the two.
func halfRounder(dt executor.ScalarType) (func(float32) float32, bool) {
	switch dt {
	case executor.Float16:
		return f16Round, true
	case executor.BFloat16:
		return bf16Round, true
	}
	return nil, false
}

// f16Round rounds v to float16 as c10::Half does (round to nearest even, overflow to
// infinity, subnormals kept), returned widened.
func f16Round(v float32) float32 { return float16.Fromfloat32(v).Float32() }

// bf16Round rounds v to bfloat16 as c10::BFloat16 does (round_to_nearest_even; NaN becomes
// the quiet NaN 0x7fc0), returned widened.
func bf16Round(v float32) float32 {
	if v != v {
		return math.Float32frombits(0x7fc00000)
	}
	b := math.Float32bits(v)
	b += 0x7fff + (b>>16)&1
	return math.Float32frombits(b &^ 0xffff)
}

// halfScalar converts a double (a Scalar, an eps) to the half type as c10's constructor from
// double does, in one rounding: the float32 step rounds to odd, so that the second rounding
// cannot land on a false tie.
func halfScalar(r func(float32) float32, v float64) float32 {
	x := float32(v)
	if float64(x) != v && !math.IsInf(float64(x), 0) && v == v {
		b := math.Float32bits(x)
		if math.Abs(float64(x)) > math.Abs(v) {
			b-- // toward zero: the truncated value
		}
		x = math.Float32frombits(b | 1)
	}
	return r(x)
}
