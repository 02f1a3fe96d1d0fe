//go:build !amd64 || purego

package gemm

import "fmt"

// Int8ISAs lists the int8 kernel sets this build can run: here only "go", the portable loops.
func Int8ISAs() []string { return []string{"go"} }

// UseInt8ISA selects an int8 kernel set (only "go" here) and returns a function that restores
// the previous choice.
func UseInt8ISA(isa string) (restore func(), err error) {
	if isa != "go" {
		return func() {}, fmt.Errorf("gemm: int8 kernel set %q is not available here (%v)", isa, Int8ISAs())
	}
	return func() {}, nil
}

func qs8Tile(p *QPacked, q *QS8, a []int8, lda int, c []int8, ldc, rows, pn, v int) {
	qs8TileGo(p, q, a, lda, c, ldc, rows, pn, v)
}

func accTile(p *QPacked, a []int8, lda int, bias []int32, c []int32, ldc, rows, pn, v int) {
	accTileGo(p, a, lda, bias, c, ldc, rows, pn, v)
}

func dwTile(q *QDW, x []int8, offs []int32, npix int, out []int8, ldo int) {
	dwTileGo(q, x, offs, npix, out, ldo)
}

func clampTile(d []int8, lo, hi int8) { clampQ8Go(d, lo, hi) }

func qaddTile(q *QAdd, dst, a, b []int8) { qaddGo(q, dst, a, b) }

func maxTile(d, s []int8) { maxQ8Go(d, s) }

func groupSums(g []int32, a []int8) int { return 0 }

func qb4Tile(p *QB4Packed, a []int8, lda int, bs []int32, bstep int, ksum, nzp []float32, c []float32, ldc, rows, pn, v int) {
	qb4TileGo(p, a, lda, bs, bstep, ksum, nzp, c, ldc, rows, pn, v)
}

func quantizeTile(dst []int8, src []float32, inv, lo, hi float32, zp int32, nanv float32) {
	quantizeQ8Go(dst, src, inv, lo, hi, zp, nanv)
}

func rowMinMaxTile(x []float32) (lo, hi float32) { return rowMinMaxGo(x) }

func dequantizeTile(dst []float32, src []int8, scale float32, zp int32) {
	dequantizeQ8Go(dst, src, scale, zp)
}

func mulTile(q *QMul, dst, a, b []int8) { mulQ8Go(q, dst, a, b) }

func sumRowsTile(sums []int32, x []int8, rows, c int) { sumRowsQ8Go(sums, x, rows, c) }

func lutTile(l *LUT8, dst, src []int8) { lutGo(l, dst, src) }

func indirectTile(q *QS8, ind *QIndirect, x, zrow []int8, r0, rows int, c []int8, ldc, pn, v int) {
	indirectTileGo(q, ind, x, zrow, r0, rows, c, ldc, pn, v)
}

func pad3to4Tile(dst, src []int8, pixels int) int { return 0 }

func qd8FinishTile(out []float32, acc, ksum []int32, zp int32, rscale float32, wscale, bias []float32, lo, hi float32) {
	qd8FinishGo(out, acc, ksum, zp, rscale, wscale, bias, lo, hi)
}
