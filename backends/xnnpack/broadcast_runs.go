package xnnpack

import "github.com/etgo/etgo/backends/xnnpack/xnngraph"

// A broadcast binary op whose fast forms (equal shapes, a scalar, an operand repeating along the
// leading dims) do not apply, a squeeze-and-excitation gate [N,C,1,1] times a map [N,C,H,W] say,
// still has long contiguous runs: over out's trailing dims each operand is either read in order
// or one value. The op then runs its vector kernel once per run (a one-value operand as a block
// of copies) instead of broadcastStrides' index walk per element. The result is the same: each
// element is still f(a, b) on the same two values, one IEEE operation.

// minBroadcastRun is the shortest run worth a kernel call; shorter ones take the index walk.
const minBroadcastRun = 8

// broadcastRuns describes out as rows of run elements: over the trailing dims the run spans, a is
// contiguous or (aOne) one value, and so is b; outer holds the dims before the run and sa, sb the
// operands' element strides over them (0 where they broadcast).
type broadcastRuns struct {
	run        int
	rank       int // of outer
	outer      [xnngraph.MaxDims]int
	sa, sb     [xnngraph.MaxDims]int
	aOne, bOne bool
}

// runsOf finds the longest trailing run of out over which a and b are each contiguous or
// constant; ok is false when it is shorter than minBroadcastRun or the shapes do not fit.
func runsOf(a, b, out []int) (r broadcastRuns, ok bool) {
	n := len(out)
	if n > xnngraph.MaxDims || len(a) > n || len(b) > n || xnngraph.Numel(out) == 0 {
		return r, false
	}
	dimOf := func(s []int, d int) int { // s aligned to out's rank
		if d < n-len(s) {
			return 1
		}
		return s[d-(n-len(s))]
	}
	// mode: 0 undecided (only dims of 1 so far), 1 contiguous, 2 one value.
	var ma, mb int
	fits := func(m *int, d, od int) bool {
		switch {
		case od == 1:
			return true
		case d == od && *m != 2:
			*m = 1
			return true
		case d == 1 && *m != 1:
			*m = 2
			return true
		}
		return false
	}
	start, run := n, 1
	for d := n - 1; d >= 0; d-- {
		sa, sb := ma, mb
		if !fits(&ma, dimOf(a, d), out[d]) || !fits(&mb, dimOf(b, d), out[d]) {
			ma, mb = sa, sb
			break
		}
		start, run = d, run*out[d]
	}
	if run < minBroadcastRun {
		return r, false
	}
	r.run, r.rank, r.aOne, r.bOne = run, start, ma == 2, mb == 2
	stepA, stepB := 1, 1
	for d := n - 1; d >= 0; d-- {
		da, db := dimOf(a, d), dimOf(b, d)
		if d < start {
			r.outer[d] = out[d]
			if da != 1 {
				r.sa[d] = stepA
			}
			if db != 1 {
				r.sb[d] = stepB
			}
		}
		stepA *= da
		stepB *= db
	}
	return r, true
}

// rows is the number of runs.
func (r *broadcastRuns) rows() int {
	n := 1
	for _, d := range r.outer[:r.rank] {
		n *= d
	}
	return n
}

// apply computes rows [lo, hi) of y with vec.
func (r *broadcastRuns) apply(vec func(dst, a, b []float32), y, a, b []float32, lo, hi int) {
	if lo >= hi {
		return
	}
	// The operands' offsets at row lo, then stepped row by row as an odometer.
	var idx [xnngraph.MaxDims]int
	oa, ob := 0, 0
	for d, rem := r.rank-1, lo; d >= 0; d-- {
		idx[d] = rem % r.outer[d]
		rem /= r.outer[d]
		oa += idx[d] * r.sa[d]
		ob += idx[d] * r.sb[d]
	}
	L := r.run
	var blk [elementwiseScalarBlock]float32
	for row := lo; row < hi; row++ {
		dst := y[row*L : (row+1)*L]
		switch {
		case r.bOne:
			fillBits(blk[:min(L, len(blk))], b[ob])
			for i := 0; i < L; i += len(blk) {
				e := min(i+len(blk), L)
				vec(dst[i:e], a[oa+i:oa+e], blk[:e-i])
			}
		case r.aOne:
			fillBits(blk[:min(L, len(blk))], a[oa])
			for i := 0; i < L; i += len(blk) {
				e := min(i+len(blk), L)
				vec(dst[i:e], blk[:e-i], b[ob+i:ob+e])
			}
		default:
			vec(dst, a[oa:oa+L], b[ob:ob+L])
		}
		for d := r.rank - 1; d >= 0; d-- {
			idx[d]++
			oa += r.sa[d]
			ob += r.sb[d]
			if idx[d] < r.outer[d] {
				break
			}
			oa -= idx[d] * r.sa[d]
			ob -= idx[d] * r.sb[d]
			idx[d] = 0
		}
	}
}

// fillBits sets every element of d to v, bit for bit (node_shape.go's fill writes +0 for -0).
func fillBits(d []float32, v float32) {
	for i := range d {
		d[i] = v
	}
}

// subVec and divVec are subtract's and divide's slice kernels: plain loops (the gain is in
// calling them per run, not per element).
func subVec(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] - b[i]
	}
}

func divVec(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] / b[i]
	}
}
