package gemm

import "fmt"

// QIndirect is a convolution's indirection table for QS8.RunIndirect (XNNPACK's indirect GEMM):
// for every output pixel and kernel tap, the offset in the NHWC input of the C codes that tap
// reads (negative: padding, which reads a row of the input zero point), so the GEMM reads the
// input in place instead of a patch matrix. Stored by tiles of 6 pixels, tap-major within a
// tile, as the kernels read it. Immutable once made.
type QIndirect struct {
	Pixels, Taps, C int
	tab             []int32 // [tiles][taps][6]
	need            int     // codes the input must hold
}

// NewQIndirect makes a table from offs, [pixels][taps] input offsets (or -1), for C channels
// (a multiple of 4) in an input of xlen codes.
func NewQIndirect(offs []int32, pixels, taps, c, xlen int) (*QIndirect, error) {
	if pixels < 0 || taps < 1 || c < 4 || c%4 != 0 || len(offs) != pixels*taps {
		return nil, fmt.Errorf("%w: indirection of %d offsets for %d pixels x %d taps of %d channels", ErrQShape, len(offs), pixels, taps, c)
	}
	tiles := (pixels + qMaxRows - 1) / qMaxRows
	q := &QIndirect{Pixels: pixels, Taps: taps, C: c, tab: make([]int32, tiles*taps*qMaxRows)}
	for i := range q.tab {
		q.tab[i] = -1
	}
	for px := range pixels {
		for t, o := range offs[px*taps : (px+1)*taps] {
			if o >= 0 {
				if int(o) > xlen-c {
					return nil, fmt.Errorf("%w: tap offset %d of %d channels in an input of %d codes", ErrQShape, o, c, xlen)
				}
				q.need = max(q.need, int(o)+c)
			}
			q.tab[((px/qMaxRows)*taps+t)*qMaxRows+px%qMaxRows] = o
		}
	}
	return q, nil
}

// RunIndirect computes output pixels [p0, p1) (p0 a multiple of 6), channels of panels
// [j0, j1): pixel px's codes at c[(px-p0)·ldc:], its patch read through ind from x, padding
// from zrow (at least C codes of the input zero point). The filter's input channels are
// ind's taps × C, tap-major (as convolution filters are).
func (q *QS8) RunIndirect(ind *QIndirect, x, zrow []int8, p0, p1 int, c []int8, ldc, j0, j1 int) error {
	p := q.P
	if p.K != ind.Taps*ind.C || len(x) < ind.need || len(zrow) < ind.C || p0 < 0 || p0%qMaxRows != 0 || p1 > ind.Pixels || p0 > p1 ||
		j0 < 0 || j1 > p.panels || j0 > j1 || ldc < p.N || (p1 > p0 && (p1-p0-1) > (len(c)-p.N)/ldc) || (p1 > p0 && len(c) < p.N) {
		return fmt.Errorf("%w: indirect product of pixels [%d, %d) of %d (%d taps x %d channels, filter K %d), %d input codes, %d outputs (ldc %d), panels [%d, %d)",
			ErrQShape, p0, p1, ind.Pixels, ind.Taps, ind.C, p.K, len(x), len(c), ldc, j0, j1)
	}
	block := max(qMaxRows, (64<<10)/max(p.K, 1)/qMaxRows*qMaxRows)
	for b0 := p0; b0 < p1; b0 += block {
		b1 := min(p1, b0+block)
		for pn := j0; pn < j1; pn += 4 {
			v := min(4, j1-pn)
			for r0 := b0; r0 < b1; r0 += qMaxRows {
				rows := min(qMaxRows, b1-r0)
				indirectTile(q, ind, x, zrow, r0, rows, c[(r0-p0)*ldc+pn*QPanel:], ldc, pn, v)
			}
		}
	}
	return nil
}

// indirectTileGo gathers the tile's patches and runs the portable tile on them.
func indirectTileGo(q *QS8, ind *QIndirect, x, zrow []int8, r0, rows int, c []int8, ldc, pn, v int) {
	K, C := q.P.K, ind.C
	buf := make([]int8, rows*K)
	tab := ind.tab[(r0/qMaxRows)*ind.Taps*qMaxRows:]
	for i := range rows {
		for t := range ind.Taps {
			src := zrow[:C]
			if o := tab[t*qMaxRows+i]; o >= 0 {
				src = x[o:][:C]
			}
			copy(buf[i*K+t*C:], src)
		}
	}
	qs8TileGo(q.P, q, buf, K, c, ldc, rows, pn, v)
}
