package portable

import (
	"math"

	"github.com/x448/float16"

	"github.com/etgo/etgo/executor"
)

func isFloat(t executor.ScalarType) bool {
	switch t {
	case executor.Float32, executor.Float64, executor.Float16, executor.BFloat16:
		return true
	}
	return false
}

func isIntegral(t executor.ScalarType) bool {
	switch t {
	case executor.Uint8, executor.Int8, executor.Int16, executor.Int32, executor.Int64,
		executor.Uint16, executor.Uint32, executor.Uint64:
		return true
	}
	return false
}

// category orders bool < integral < floating, as PyTorch's type promotion does.
func category(t executor.ScalarType) int {
	switch {
	case t == executor.Bool:
		return 0
	case isIntegral(t):
		return 1
	}
	return 2
}

var floatRank = map[executor.ScalarType]int{executor.Float16: 1, executor.BFloat16: 1, executor.Float32: 2, executor.Float64: 3}
var intRank = map[executor.ScalarType]int{executor.Int8: 1, executor.Uint8: 1, executor.Int16: 2, executor.Uint16: 2,
	executor.Int32: 3, executor.Uint32: 3, executor.Int64: 4, executor.Uint64: 4}

// promote is torch.promote_types for the types etgo computes with.
func promote(a, b executor.ScalarType) executor.ScalarType {
	if a == b {
		return a
	}
	ca, cb := category(a), category(b)
	if ca != cb {
		if ca > cb {
			return a
		}
		return b
	}
	if ca == 2 {
		if floatRank[a] == floatRank[b] { // float16 with bfloat16
			return executor.Float32
		}
		if floatRank[a] > floatRank[b] {
			return a
		}
		return b
	}
	// Integral: uint8 with int8 widens to int16; otherwise the wider type (signed when the
	// widths tie, since uint8 only ties with int8).
	if (a == executor.Uint8 && b == executor.Int8) || (a == executor.Int8 && b == executor.Uint8) {
		return executor.Int16
	}
	if intRank[a] >= intRank[b] {
		return a
	}
	return b
}

// typeState computes PyTorch's result type over operands in three tiers: tensors with
// dimensions, zero-dimensional tensors, and wrapped numbers (Scalar arguments). A lower tier
// changes the result only when its category (bool < integral < floating) is higher, and a
// floating wrapped number then contributes float32, the default dtype.
type typeState struct {
	dim, zero, wrapped executor.ScalarType
	hasDim, hasZero    bool
	hasWrapped         bool
}

func (s *typeState) tensor(t *executor.Tensor) *typeState {
	if t.Dim() == 0 {
		s.zero, s.hasZero = promoteOpt(s.zero, s.hasZero, t.ScalarType()), true
	} else {
		s.dim, s.hasDim = promoteOpt(s.dim, s.hasDim, t.ScalarType()), true
	}
	return s
}

func (s *typeState) scalar(v scalar) *typeState {
	t := executor.Int64
	switch {
	case v.IsFloat:
		t = executor.Float32
	case v.IsBool:
		t = executor.Bool
	}
	s.wrapped, s.hasWrapped = promoteOpt(s.wrapped, s.hasWrapped, t), true
	return s
}

func promoteOpt(cur executor.ScalarType, has bool, t executor.ScalarType) executor.ScalarType {
	if !has {
		return t
	}
	return promote(cur, t)
}

// combine is c10's combine_categories: the higher tier wins unless the lower is of a higher
// category.
func combine(higher executor.ScalarType, hasHigher bool, lower executor.ScalarType, hasLower bool) (executor.ScalarType, bool) {
	switch {
	case !hasHigher:
		return lower, hasLower
	case !hasLower || isFloat(higher):
		return higher, true
	case higher == executor.Bool || isFloat(lower):
		return promote(higher, lower), true
	}
	return higher, true
}

func (s *typeState) result() executor.ScalarType {
	zw, has := combine(s.zero, s.hasZero, s.wrapped, s.hasWrapped)
	r, _ := combine(s.dim, s.hasDim, zw, has)
	return r
}

// forEach visits every element's offset (in elements) in logical row-major order.
func forEach(t *executor.Tensor, visit func(i, off int)) {
	n := t.Numel()
	if t.IsContiguous() {
		for i := 0; i < n; i++ {
			visit(i, i)
		}
		return
	}
	sizes, strides := t.Sizes(), t.Strides()
	idx := make([]int, len(sizes))
	off := 0
	for i := 0; i < n; i++ {
		visit(i, off)
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			off += strides[d]
			if idx[d] < sizes[d] {
				break
			}
			off -= idx[d] * strides[d]
			idx[d] = 0
		}
	}
}

// loadF64 reads every element, in logical order, as float64.
func loadF64(t *executor.Tensor) []float64 {
	out := make([]float64, t.Numel())
	switch t.ScalarType() {
	case executor.Float32:
		d := executor.Data[float32](t)
		forEach(t, func(i, o int) { out[i] = float64(d[o]) })
	case executor.Float64:
		d := executor.Data[float64](t)
		forEach(t, func(i, o int) { out[i] = d[o] })
	case executor.Float16:
		d := executor.Data[uint16](t)
		forEach(t, func(i, o int) { out[i] = float64(float16.Frombits(d[o]).Float32()) })
	case executor.BFloat16:
		d := executor.Data[uint16](t)
		forEach(t, func(i, o int) { out[i] = float64(math.Float32frombits(uint32(d[o]) << 16)) })
	default:
		iv := loadI64(t)
		for i, v := range iv {
			out[i] = float64(v)
		}
	}
	return out
}

// loadI64 reads every element, in logical order, as int64 (floats truncate toward zero).
func loadI64(t *executor.Tensor) []int64 {
	out := make([]int64, t.Numel())
	switch t.ScalarType() {
	case executor.Bool:
		d := executor.Data[bool](t)
		forEach(t, func(i, o int) {
			if d[o] {
				out[i] = 1
			}
		})
	case executor.Uint8:
		d := executor.Data[uint8](t)
		forEach(t, func(i, o int) { out[i] = int64(d[o]) })
	case executor.Int8:
		d := executor.Data[int8](t)
		forEach(t, func(i, o int) { out[i] = int64(d[o]) })
	case executor.Int16:
		d := executor.Data[int16](t)
		forEach(t, func(i, o int) { out[i] = int64(d[o]) })
	case executor.Int32:
		d := executor.Data[int32](t)
		forEach(t, func(i, o int) { out[i] = int64(d[o]) })
	case executor.Int64:
		d := executor.Data[int64](t)
		forEach(t, func(i, o int) { out[i] = d[o] })
	case executor.Uint16:
		d := executor.Data[uint16](t)
		forEach(t, func(i, o int) { out[i] = int64(d[o]) })
	case executor.Uint32:
		d := executor.Data[uint32](t)
		forEach(t, func(i, o int) { out[i] = int64(d[o]) })
	case executor.Uint64:
		d := executor.Data[uint64](t)
		forEach(t, func(i, o int) { out[i] = int64(d[o]) })
	default:
		fv := loadF64(t)
		for i, v := range fv {
			out[i] = f64ToI64(v)
		}
	}
	return out
}

// f64ToI64 truncates toward zero; NaN and out-of-range values saturate (C++ leaves them
// undefined; saturating keeps Go from producing implementation-specific values).
func f64ToI64(v float64) int64 {
	switch {
	case v != v:
		return 0
	case v >= math.MaxInt64:
		return math.MaxInt64
	case v <= math.MinInt64:
		return math.MinInt64
	}
	return int64(v)
}

// storeF64 writes values given in logical order into t, cast to t's type (floats to integers
// truncate toward zero, to bool compare with zero).
func storeF64(t *executor.Tensor, v []float64) {
	switch t.ScalarType() {
	case executor.Float32:
		d := executor.Data[float32](t)
		forEach(t, func(i, o int) { d[o] = float32(v[i]) })
	case executor.Float64:
		d := executor.Data[float64](t)
		forEach(t, func(i, o int) { d[o] = v[i] })
	case executor.Float16:
		d := executor.Data[uint16](t)
		forEach(t, func(i, o int) { d[o] = float16.Fromfloat32(float32(v[i])).Bits() })
	case executor.BFloat16:
		d := executor.Data[uint16](t)
		forEach(t, func(i, o int) { d[o] = toBF16(float32(v[i])) })
	case executor.Bool:
		d := executor.Data[bool](t)
		forEach(t, func(i, o int) { d[o] = v[i] != 0 })
	default:
		iv := make([]int64, len(v))
		for i, x := range v {
			iv[i] = f64ToI64(x)
		}
		storeI64(t, iv)
	}
}

// storeI64 writes values given in logical order into t, cast to t's type (integers wrap).
func storeI64(t *executor.Tensor, v []int64) {
	switch t.ScalarType() {
	case executor.Bool:
		d := executor.Data[bool](t)
		forEach(t, func(i, o int) { d[o] = v[i] != 0 })
	case executor.Uint8:
		d := executor.Data[uint8](t)
		forEach(t, func(i, o int) { d[o] = uint8(v[i]) })
	case executor.Int8:
		d := executor.Data[int8](t)
		forEach(t, func(i, o int) { d[o] = int8(v[i]) })
	case executor.Int16:
		d := executor.Data[int16](t)
		forEach(t, func(i, o int) { d[o] = int16(v[i]) })
	case executor.Int32:
		d := executor.Data[int32](t)
		forEach(t, func(i, o int) { d[o] = int32(v[i]) })
	case executor.Int64:
		d := executor.Data[int64](t)
		forEach(t, func(i, o int) { d[o] = v[i] })
	case executor.Uint16:
		d := executor.Data[uint16](t)
		forEach(t, func(i, o int) { d[o] = uint16(v[i]) })
	case executor.Uint32:
		d := executor.Data[uint32](t)
		forEach(t, func(i, o int) { d[o] = uint32(v[i]) })
	case executor.Uint64:
		d := executor.Data[uint64](t)
		forEach(t, func(i, o int) { d[o] = uint64(v[i]) })
	default:
		fv := make([]float64, len(v))
		for i, x := range v {
			fv[i] = float64(x)
		}
		storeF64(t, fv)
	}
}

// toBF16 rounds a float32 to bfloat16 bits, to nearest even.
func toBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if f != f {
		return uint16(b>>16) | 0x40 // quiet NaN
	}
	return uint16((b + 0x7fff + (b>>16)&1) >> 16)
}

// Operands are cast to the computation type before any arithmetic, as PyTorch does: an int64
// added to a float32 is first rounded to float32, an int8 compared with 300 compares with 44.

// roundTo rounds x to the precision of the floating type t (the identity for Float64).
func roundTo(t executor.ScalarType, x float64) float64 {
	switch t {
	case executor.Float32:
		return float64(float32(x))
	case executor.Float16:
		return float64(float16.Fromfloat32(float32(x)).Float32())
	case executor.BFloat16:
		return float64(math.Float32frombits(uint32(toBF16(float32(x))) << 16))
	}
	return x
}

// wrapInt reduces x modulo the width of the integral (or Bool) type t, as a C++ cast does.
func wrapInt(t executor.ScalarType, x int64) int64 {
	switch t {
	case executor.Bool:
		if x != 0 {
			return 1
		}
		return 0
	case executor.Uint8:
		return int64(uint8(x))
	case executor.Int8:
		return int64(int8(x))
	case executor.Int16:
		return int64(int16(x))
	case executor.Int32:
		return int64(int32(x))
	case executor.Uint16:
		return int64(uint16(x))
	case executor.Uint32:
		return int64(uint32(x))
	}
	return x
}

// loadCastF64 reads t in logical order, each value cast to the floating type common.
func loadCastF64(t *executor.Tensor, common executor.ScalarType) []float64 {
	v := loadF64(t)
	if common != executor.Float64 {
		for i, x := range v {
			v[i] = roundTo(common, x)
		}
	}
	return v
}

// loadCastI64 reads t in logical order, each value cast to the integral or Bool type common.
func loadCastI64(t *executor.Tensor, common executor.ScalarType) []int64 {
	v := loadI64(t)
	if common != executor.Int64 && common != executor.Uint64 {
		for i, x := range v {
			v[i] = wrapInt(common, x)
		}
	}
	return v
}

// wrapTo reduces every value modulo the width of the integral (or Bool) type t, in place.
func wrapTo(t executor.ScalarType, v []int64) []int64 {
	for i, x := range v {
		v[i] = wrapInt(t, x)
	}
	return v
}
