package optimized

import (
	"unsafe"

	"github.com/etgo/etgo/executor"
)

// rowOp computes one output row of a float32 binary operator: dst[i] = op(x[i·xs], y[i·ys]) with
// steps xs, ys of 1 (the operand has the output's last dim) or 0 (it broadcasts there).
type rowOp func(dst, x, y []float32, xs, ys int)

// binaryChunk is the element count of one task of a same-shape (flat) call.
const binaryChunk = 4096

// binaryF32 is the fast path of add/sub/mul/div.out: self, other and out float32, self and
// other contiguous, out contiguous once sized to the broadcast shape, and out either disjoint
// from an operand or that very operand (an in-place program). It reports false, having
// changed nothing but out's size, for any other call, which the portable kernel then takes
// (with its type promotion, strides and errors).
//
// float32 +, -, ×, ÷ give the float64 result rounded to float32 (float64 holds the exact
// product of two float32 and rounds sums and quotients only once more than float32 can
// distinguish), so the result is bitwise the portable kernel's.
func binaryF32(threads int, a, b, out *executor.Tensor, op rowOp) bool {
	if a.ScalarType() != executor.Float32 || b.ScalarType() != executor.Float32 || out.ScalarType() != executor.Float32 ||
		!a.IsContiguous() || !b.IsContiguous() {
		return false
	}
	shape, ok := broadcast(a.Sizes(), b.Sizes())
	if !ok || out.Resize(shape) != nil || !out.IsContiguous() {
		return false
	}
	x, y, z := executor.Data[float32](a), executor.Data[float32](b), executor.Data[float32](out)
	if badAlias(z, x) || badAlias(z, y) {
		return false
	}
	n := len(z)
	if n == 0 {
		return true
	}
	if len(x) == n && len(y) == n {
		chunks := (n + binaryChunk - 1) / binaryChunk
		parallelFor(threads, chunks, n, func(lo, hi int) {
			lo, hi = lo*binaryChunk, min(hi*binaryChunk, n)
			op(z[lo:hi], x[lo:hi], y[lo:hi], 1, 1)
		})
		return true
	}
	// Rows of the last dim; each operand's row start comes from its strides in the output's
	// coordinates (0 where it broadcasts).
	rank := len(shape)
	last := 1
	if rank > 0 {
		last = shape[rank-1]
	}
	sa, sb := bstrides(a.Sizes(), shape), bstrides(b.Sizes(), shape)
	xs, ys := 1, 1
	if rank > 0 {
		xs, ys = sa[rank-1], sb[rank-1]
	}
	rows := n / last
	parallelFor(threads, rows, n, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			oa, ob, rem := 0, 0, r
			for d := rank - 2; d >= 0; d-- {
				i := rem % shape[d]
				rem /= shape[d]
				oa += i * sa[d]
				ob += i * sb[d]
			}
			op(z[r*last:(r+1)*last], x[oa:], y[ob:], xs, ys)
		}
	})
	return true
}

// broadcast is the broadcast shape of a and b (false when they do not broadcast).
func broadcast(a, b []int) ([]int, bool) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := 0; i < n; i++ {
		da, db := 1, 1
		if j := len(a) - n + i; j >= 0 {
			da = a[j]
		}
		if j := len(b) - n + i; j >= 0 {
			db = b[j]
		}
		switch {
		case da == db, db == 1:
			out[i] = da
		case da == 1:
			out[i] = db
		default:
			return nil, false
		}
	}
	return out, true
}

// bstrides are the contiguous strides of sizes aligned to shape's trailing dims, 0 where
// sizes broadcasts (a missing or size-1 dim).
func bstrides(sizes, shape []int) []int {
	st := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		j := len(sizes) - len(shape) + i
		if j < 0 || sizes[j] == 1 {
			continue
		}
		st[i] = s
		s *= sizes[j]
	}
	return st
}

// badAlias reports whether out overlaps the operand x other than as x itself (same start and
// length): an elementwise pass reads each x before writing the same place, which is safe, but
// a shifted or broadcast overlap would read what it already wrote.
func badAlias(out, x []float32) bool {
	if len(out) == 0 || len(x) == 0 {
		return false
	}
	o0 := uintptr(unsafe.Pointer(unsafe.SliceData(out)))
	x0 := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	o1, x1 := o0+uintptr(len(out))*4, x0+uintptr(len(x))*4
	if o1 <= x0 || x1 <= o0 {
		return false
	}
	return o0 != x0 || len(out) != len(x)
}

// The row operators, one loop per operator and broadcast case (a function value per element
// would cost more than the arithmetic). The alpha forms compute as the portable kernel does, in
// float64 before one rounding, since x + alpha·y rounded twice can differ.

func rowAdd(dst, x, y []float32, xs, ys int) {
	switch {
	case xs == 1 && ys == 1:
		x, y = x[:len(dst)], y[:len(dst)]
		for i := range dst {
			a, b := x[i], y[i]
			dst[i] = a + b
		}
	case xs == 1:
		x = x[:len(dst)]
		b := y[0]
		for i := range dst {
			a := x[i]
			dst[i] = a + b
		}
	case ys == 1:
		y = y[:len(dst)]
		a := x[0]
		for i := range dst {
			b := y[i]
			dst[i] = a + b
		}
	default:
		a, b := x[0], y[0]
		v := a + b
		for i := range dst {
			dst[i] = v
		}
	}
}

func rowSub(dst, x, y []float32, xs, ys int) {
	switch {
	case xs == 1 && ys == 1:
		x, y = x[:len(dst)], y[:len(dst)]
		for i := range dst {
			a, b := x[i], y[i]
			dst[i] = a - b
		}
	case xs == 1:
		x = x[:len(dst)]
		b := y[0]
		for i := range dst {
			a := x[i]
			dst[i] = a - b
		}
	case ys == 1:
		y = y[:len(dst)]
		a := x[0]
		for i := range dst {
			b := y[i]
			dst[i] = a - b
		}
	default:
		a, b := x[0], y[0]
		v := a - b
		for i := range dst {
			dst[i] = v
		}
	}
}

func rowMul(dst, x, y []float32, xs, ys int) {
	switch {
	case xs == 1 && ys == 1:
		x, y = x[:len(dst)], y[:len(dst)]
		for i := range dst {
			a, b := x[i], y[i]
			dst[i] = a * b
		}
	case xs == 1:
		x = x[:len(dst)]
		b := y[0]
		for i := range dst {
			a := x[i]
			dst[i] = a * b
		}
	case ys == 1:
		y = y[:len(dst)]
		a := x[0]
		for i := range dst {
			b := y[i]
			dst[i] = a * b
		}
	default:
		a, b := x[0], y[0]
		v := a * b
		for i := range dst {
			dst[i] = v
		}
	}
}

func rowDiv(dst, x, y []float32, xs, ys int) {
	switch {
	case xs == 1 && ys == 1:
		x, y = x[:len(dst)], y[:len(dst)]
		for i := range dst {
			a, b := x[i], y[i]
			dst[i] = a / b
		}
	case xs == 1:
		x = x[:len(dst)]
		b := y[0]
		for i := range dst {
			a := x[i]
			dst[i] = a / b
		}
	case ys == 1:
		y = y[:len(dst)]
		a := x[0]
		for i := range dst {
			b := y[i]
			dst[i] = a / b
		}
	default:
		a, b := x[0], y[0]
		v := a / b
		for i := range dst {
			dst[i] = v
		}
	}
}

func rowAddAlpha(alpha float64) rowOp {
	return func(dst, x, y []float32, xs, ys int) {
		switch {
		case xs == 1 && ys == 1:
			x, y = x[:len(dst)], y[:len(dst)]
			for i := range dst {
				a, b := x[i], y[i]
				dst[i] = float32(float64(a) + alpha*float64(b))
			}
		case xs == 1:
			x = x[:len(dst)]
			b := y[0]
			for i := range dst {
				a := x[i]
				dst[i] = float32(float64(a) + alpha*float64(b))
			}
		case ys == 1:
			y = y[:len(dst)]
			a := x[0]
			for i := range dst {
				b := y[i]
				dst[i] = float32(float64(a) + alpha*float64(b))
			}
		default:
			a, b := x[0], y[0]
			v := float32(float64(a) + alpha*float64(b))
			for i := range dst {
				dst[i] = v
			}
		}
	}
}

func rowSubAlpha(alpha float64) rowOp {
	return func(dst, x, y []float32, xs, ys int) {
		switch {
		case xs == 1 && ys == 1:
			x, y = x[:len(dst)], y[:len(dst)]
			for i := range dst {
				a, b := x[i], y[i]
				dst[i] = float32(float64(a) - alpha*float64(b))
			}
		case xs == 1:
			x = x[:len(dst)]
			b := y[0]
			for i := range dst {
				a := x[i]
				dst[i] = float32(float64(a) - alpha*float64(b))
			}
		case ys == 1:
			y = y[:len(dst)]
			a := x[0]
			for i := range dst {
				b := y[i]
				dst[i] = float32(float64(a) - alpha*float64(b))
			}
		default:
			a, b := x[0], y[0]
			v := float32(float64(a) - alpha*float64(b))
			for i := range dst {
				dst[i] = v
			}
		}
	}
}
