//go:build amd64 && !purego

package gemm

import "unsafe"

// The AVX2 int8 GEMM tiles (gen_qgemm_avx2.go): the kernels take up to 3 rows (16 ymm
// registers hold no more accumulators) and loop over the tile's v panels themselves, so a tile
// of up to 6 rows is two calls; a panel's weights are read once per call, from L1.

// a2Weights is panel pn's packed weights (nil-safe when K is 0: the kernels then read none).
func a2Weights(p *QPacked, pn int) *int8 {
	return (*int8)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(p.w)), pn*p.kg*64))
}

// a2Last is the channels of the last of v panels from pn.
func a2Last(p *QPacked, pn, v int) int { return min(QPanel, p.N-(pn+v-1)*QPanel) }

func qs8TileAVX2(p *QPacked, q *QS8, a []int8, lda int, c []int8, ldc, rows, pn, v int) {
	o, n, w := pn*QPanel, a2Last(p, pn, v), a2Weights(p, pn)
	for r0 := 0; r0 < rows; r0 += maxRowsA2 {
		r := min(maxRowsA2, rows-r0)
		qs8A2[r](unsafe.SliceData(a[r0*lda:]), lda, w, p.kg*64, p.kg, v, &q.bias[o], &p.ksum[o], &q.scale[o], &c[r0*ldc], ldc, q.lo, q.hi, q.zp, n)
	}
}

func accTileAVX2(p *QPacked, a []int8, lda int, bias []int32, c []int32, ldc, rows, pn, v int) {
	o, n, w := pn*QPanel, a2Last(p, pn, v), a2Weights(p, pn)
	for r0 := 0; r0 < rows; r0 += maxRowsA2 {
		r := min(maxRowsA2, rows-r0)
		qaccA2[r](unsafe.SliceData(a[r0*lda:]), lda, w, p.kg*64, p.kg, v, &bias[0], &p.ksum[o], &c[r0*ldc], ldc, n)
	}
}

func indirectTileAVX2(q *QS8, ind *QIndirect, x, zrow []int8, r0, rows int, c []int8, ldc, pn, v int) {
	p := q.P
	o, n, w := pn*QPanel, a2Last(p, pn, v), a2Weights(p, pn)
	tab := ind.tab[(r0/qMaxRows)*ind.Taps*qMaxRows:]
	for i0 := 0; i0 < rows; i0 += maxRowsA2 {
		r := min(maxRowsA2, rows-i0)
		qi8A2[r](&tab[i0], ind.Taps, ind.C/4, unsafe.SliceData(x), &zrow[0], w, p.kg*64, v, &q.bias[o], &p.ksum[o], &q.scale[o],
			&c[i0*ldc], ldc, q.lo, q.hi, q.zp, n)
	}
}

// maxRowsA2 is the AVX2 kernels' largest row count.
const maxRowsA2 = 3
