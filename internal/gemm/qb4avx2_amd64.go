//go:build amd64 && !purego

package gemm

//go:generate go run qb4avx2_gen.go

// qb4a2Active reports whether the qb4w tiles are the AVX2 kernels' (Run sizes its tiles by it).
func qb4a2Active() bool { return useI8AVX2 }

// qb4a2Row is the AVX2 kernels' scratch tile row stride in floats (4 panels).
const qb4a2Row = 4 * QPanel

// qb4TileAVX2 runs a tile of rows × v panels (rows·v ≤ 5) on the AVX2 kernels. They start
// from ksum·nzp and accumulate in their output: c itself when the tile's panels are whole,
// else a scratch tile whose valid channels are copied to c, so a partial last panel needs no
// masked store.
func qb4TileAVX2(p *QB4Packed, a []int8, lda int, bs []int32, bstep int, ksum, nzp []float32, c []float32, ldc, rows, pn, v int) {
	kp := p.K / 8
	k := qb4a2Kernels[rows][v]
	if n := p.N - pn*QPanel; n >= v*QPanel {
		k(&a[0], lda, &p.w[pn*kp*64], kp*64, p.nb, p.Block/8, &bs[0], 4*bstep,
			&p.bscale[pn*p.nb*QPanel], p.nb*2*QPanel, &ksum[0], &nzp[0], &c[0], 4*ldc)
		return
	}
	var out [qb4a2MaxRV * qb4a2Row]float32
	k(&a[0], lda, &p.w[pn*kp*64], kp*64, p.nb, p.Block/8, &bs[0], 4*bstep,
		&p.bscale[pn*p.nb*QPanel], p.nb*2*QPanel, &ksum[0], &nzp[0], &out[0], 4*qb4a2Row)
	n := p.N - pn*QPanel
	for r := range rows {
		copy(c[r*ldc:][:n], out[r*qb4a2Row:][:n])
	}
}
