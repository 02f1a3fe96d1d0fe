package portable

import (
	"fmt"

	"github.com/etgo/etgo/executor"
)

// broadcastShape returns the shape two shapes broadcast to (numpy rules: align at the right,
// sizes equal or one of them 1).
func broadcastShape(a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := 0; i < n; i++ {
		x, y := 1, 1
		if k := len(a) - n + i; k >= 0 {
			x = a[k]
		}
		if k := len(b) - n + i; k >= 0 {
			y = b[k]
		}
		switch {
		case x == y, y == 1:
			out[i] = x
		case x == 1:
			out[i] = y
		default:
			return nil, fmt.Errorf("%w: shapes %v and %v do not broadcast", executor.ErrInvalidArgument, a, b)
		}
	}
	return out, nil
}

// broadcastIndex maps each element of out (row-major over outShape) to the element of a
// row-major tensor of shape in that broadcasts to it. It returns nil when in equals outShape
// (the identity map).
func broadcastIndex(in, outShape []int) []int {
	if equalShape(in, outShape) {
		return nil
	}
	n := 1
	for _, d := range outShape {
		n *= d
	}
	// Strides of in, aligned to outShape, with 0 where in broadcasts.
	strides := make([]int, len(outShape))
	step := 1
	for i := len(in) - 1; i >= 0; i-- {
		k := len(outShape) - len(in) + i
		if in[i] != 1 {
			strides[k] = step
		}
		step *= in[i]
	}
	idx := make([]int, len(outShape))
	m := make([]int, n)
	off := 0
	for e := 0; e < n; e++ {
		m[e] = off
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			off += strides[d]
			if idx[d] < outShape[d] {
				break
			}
			off -= idx[d] * strides[d]
			idx[d] = 0
		}
	}
	return m
}

func equalShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// at reads element e through a broadcast map (nil = identity).
func at[T any](v []T, m []int, e int) T {
	if m == nil {
		return v[e]
	}
	return v[m[e]]
}

// resize sizes an out tensor, naming it in the error.
func resize(out *executor.Tensor, sizes []int) error {
	if err := out.Resize(sizes); err != nil {
		return fmt.Errorf("out: %w", err)
	}
	return nil
}

// rows maps the rows of a row-major output (all dims but the last) to the start of the
// matching row of an operand that broadcasts to it, and steps through a row: step is 1 when
// the operand has the output's last dim, 0 when it broadcasts there.
type rows struct {
	index []int // nil: row i starts at i·len
	len   int
	step  int
}

func (r rows) at(i int) int {
	if r.index == nil {
		return i * r.len
	}
	return r.index[i] * r.len
}

// rowsOf is rows for an operand of shape in broadcast to outShape (at least one dim): the index
// of its leading dims is broadcastIndex's, over the rows only.
func rowsOf(in, outShape []int) rows {
	last := outShape[len(outShape)-1]
	inLast := 1
	lead := in
	if len(in) > 0 {
		inLast, lead = in[len(in)-1], in[:len(in)-1]
	}
	r := rows{len: inLast, step: 1}
	if inLast != last {
		r.step = 0
	}
	r.index = broadcastIndex(lead, outShape[:len(outShape)-1])
	return r
}
