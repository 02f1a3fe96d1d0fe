package quantized

import "github.com/etgo/etgo/executor"

// The mixed matmuls accumulate in the C++ types of their template arguments (float, double or
// c10::Half), so their rounding depends on each operation's types. A typed holds a value and
// its C++ type; the operations follow c10's operators: Half with Half gives Half (computed in
// float, rounded), Half with float gives float, anything with double gives double, and a
// compound assignment into a Half first rounds the right side to Half. Computing a float32
// (or Half) operation in float64 (float32) and rounding once is exact for + and ·, as the
// wider type has more than twice the precision plus two bits.

type ctype uint8

const (
	cHalf ctype = iota
	cFloat
	cDouble
)

func ctypeOf(t executor.ScalarType) ctype {
	switch t {
	case executor.Float16:
		return cHalf
	case executor.Float64:
		return cDouble
	}
	return cFloat
}

// round gives v the precision of c.
func (c ctype) round(v float64) float64 {
	switch c {
	case cHalf:
		return float64(halfValue(halfBits(float32(v))))
	case cFloat:
		return float64(float32(v))
	}
	return v
}

type typed struct {
	v float64
	c ctype
}

func (a typed) mul(b typed) typed {
	c := max(a.c, b.c)
	// The explicit conversion rounds the product, so that no architecture fuses it with the
	// sum it feeds (Go may fuse x*y + z into one FMA otherwise; the official kernels do not).
	return typed{c.round(float64(a.v * b.v)), c}
}

// addAssign is a += b with a's type kept.
func (a typed) addAssign(b typed) typed {
	if a.c == cHalf && b.c != cHalf {
		b = typed{cHalf.round(b.v), cHalf}
	}
	c := max(a.c, b.c)
	return typed{a.c.round(c.round(a.v + b.v)), a.c}
}

// floatValues reads a Float32, Float16 or Float64 tensor as float64 values with their C++ type.
func floatValues(t *executor.Tensor) ([]float64, ctype) {
	if t.ScalarType() == executor.Float64 {
		return doubles(t), cDouble
	}
	f := floats(t)
	out := make([]float64, len(f))
	for i, v := range f {
		out[i] = float64(v)
	}
	return out, ctypeOf(t.ScalarType())
}

// storeTyped writes float64 values (already of out's precision) into a Float32, Float16 or
// Float64 tensor.
func storeTyped(t *executor.Tensor, v []float64) {
	if t.ScalarType() == executor.Float64 {
		copy(doubles(t), v)
		return
	}
	dst := newFloatStore(t)
	for i, x := range v {
		dst.set(i, float32(x))
	}
}
