//go:build amd64 && !purego

package gemm

//go:generate go run qb4avx2_gen.go

// qb4a2Active reports whether the qb4w tiles are the AVX2 kernels' (Run sizes its tiles by it).
func qb4a2Active() bool { return useI8AVX2 }

// qb4a2Row is the AVX2 kernels' scratch tile row stride in floats (4 panels).
const qb4a2Row = 4 * QPanel

// qb4TileAVX2 runs a tile of rows × v panels (rows·v ≤ 5) on the AVX2 kernels. They accumulate
// in a scratch tile that starts, as qb4TileGo's out does, at ksum·nzp; its valid channels are
// copied to c, so a partial last panel needs no masked store.
func qb4TileAVX2(p *QB4Packed, a []int8, lda int, bs []int32, bstep int, ksum, nzp []float32, c []float32, ldc, rows, pn, v int) {
	var out [qb4a2MaxRV * qb4a2Row]float32
	for r := range rows {
		o := out[r*qb4a2Row:][:v*QPanel]
		for i, k := range ksum[:v*QPanel] {
			o[i] = k * nzp[r]
		}
	}
	kp := p.K / 8
	qb4a2Kernels[rows][v](&a[0], lda, &p.w[pn*kp*64], kp*64, p.nb, p.Block/8, &bs[0], 4*bstep,
		&p.bscale[pn*p.nb*QPanel], p.nb*2*QPanel, &out[0])
	n := min(v*QPanel, p.N-pn*QPanel)
	for r := range rows {
		copy(c[r*ldc:][:n], out[r*qb4a2Row:][:n])
	}
}
