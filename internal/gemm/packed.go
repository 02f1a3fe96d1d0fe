package gemm

import "fmt"

// The packed GEMM computes C += A·B with B packed once (weights) into panels of NR columns, and
// runs a register-tiled MR×NR microkernel over it: Go assembly with AVX2 FMA where the CPU has it
// (kernel_amd64.s), the pure-Go kernel elsewhere and under the purego build tag.
const (
	MR = 6  // rows of A per microkernel call
	NR = 16 // columns of B per panel (two 8-wide vectors)
)

// PackedB is a K×N matrix stored as ceil(N/NR) panels of K rows by NR columns, zero padded.
type PackedB struct {
	K, N   int
	panels []float32
}

// PackB packs a row-major K×N matrix b (row stride ldb).
func PackB(b []float32, k, n, ldb int) (*PackedB, error) {
	if k < 0 || n < 0 || (k > 0 && n > 0 && (ldb < n || len(b) < (k-1)*ldb+n)) {
		return nil, fmt.Errorf("gemm: %d values with row stride %d cannot hold a %dx%d matrix", len(b), ldb, k, n)
	}
	np := (n + NR - 1) / NR
	p := &PackedB{K: k, N: n, panels: make([]float32, np*k*NR)}
	for j := 0; j < np; j++ {
		panel := p.panels[j*k*NR:]
		cols := min(NR, n-j*NR)
		for kk := 0; kk < k; kk++ {
			copy(panel[kk*NR:kk*NR+cols], b[kk*ldb+j*NR:kk*ldb+j*NR+cols])
		}
	}
	return p, nil
}

// Gemm accumulates C[m×N] += A[m×K]·B for a row-major A (row stride lda) and C (row stride ldc).
func (p *PackedB) Gemm(m int, a []float32, lda int, c []float32, ldc int) {
	k, n := p.K, p.N
	if m == 0 || n == 0 || k == 0 {
		return
	}
	var tile [MR * NR]float32
	var scratch []float32
	for j := 0; j*NR < n; j++ {
		panel := p.panels[j*k*NR : (j+1)*k*NR]
		cols := min(NR, n-j*NR)
		for i0 := 0; i0 < m; i0 += MR {
			rows := min(MR, m-i0)
			// The kernel reads MR full rows of K values; short tiles read a zero-padded copy.
			arows, astride := a[i0*lda:], lda
			if rows < MR || len(arows) < (MR-1)*lda+k {
				if scratch == nil {
					scratch = make([]float32, MR*k)
				}
				clear(scratch)
				for r := 0; r < rows; r++ {
					copy(scratch[r*k:(r+1)*k], a[(i0+r)*lda:(i0+r)*lda+k])
				}
				arows, astride = scratch, k
			}
			if rows == MR && cols == NR && len(c) >= (i0+MR-1)*ldc+j*NR+NR {
				// A full tile: the kernel accumulates into C in place.
				microkernel(arows, astride, panel, c[i0*ldc+j*NR:], ldc, k)
				continue
			}
			for r := 0; r < MR; r++ {
				t := tile[r*NR : (r+1)*NR]
				if r < rows {
					copy(t[:cols], c[(i0+r)*ldc+j*NR:])
					clear(t[cols:])
				} else {
					clear(t)
				}
			}
			microkernel(arows, astride, panel, tile[:], NR, k)
			for r := 0; r < rows; r++ {
				copy(c[(i0+r)*ldc+j*NR:(i0+r)*ldc+j*NR+cols], tile[r*NR:r*NR+cols])
			}
		}
	}
}

// kernelGo is the portable microkernel: c[MR×NR, stride ldc] += a[MR rows of k, stride lda] ·
// panel[k×NR].
func kernelGo(a []float32, lda int, panel []float32, c []float32, ldc int, k int) {
	for r := 0; r < MR; r++ {
		row := a[r*lda : r*lda+k]
		t := c[r*ldc : r*ldc+NR : r*ldc+NR]
		for kk, av := range row {
			b := panel[kk*NR : (kk+1)*NR : (kk+1)*NR]
			for j := range t {
				t[j] += av * b[j]
			}
		}
	}
}

// TileRows is how many rows of A GemmBias computes per kernel call: split work on multiples
// of it so every chunk runs whole tiles.
func TileRows() int { return biasMR }

// kernelBiasGo is the portable bias-and-clamp microkernel over mr rows (any count).
func kernelBiasGo(mr int, a []float32, lda int, panel, bias []float32, c []float32, ldc int, k int, lo, hi float32) {
	for r := 0; r < mr; r++ {
		t := c[r*ldc : r*ldc+NR : r*ldc+NR]
		copy(t, bias[:NR])
		for kk, av := range a[r*lda : r*lda+k] {
			b := panel[kk*NR : (kk+1)*NR : (kk+1)*NR]
			for j := range t {
				t[j] += av * b[j]
			}
		}
		for j, x := range t {
			// Written as max-then-min like the vector kernel (a NaN becomes lo there too).
			if !(x > lo) {
				x = lo
			}
			if !(x < hi) {
				x = hi
			}
			t[j] = x
		}
	}
}

// Panels is the number of NR-column panels of B: GemmBiasPanels splits work on them.
func (p *PackedB) Panels() int { return (p.N + NR - 1) / NR }

// GemmBias computes C[m×N] = clamp(bias + A[m×K]·B, lo, hi): a fully connected layer or a
// convolution with its bias (nil for none) and fused activation in one pass over C.
func (p *PackedB) GemmBias(m int, a []float32, lda int, bias []float32, c []float32, ldc int, lo, hi float32) {
	p.GemmBiasPanels(m, a, lda, bias, c, ldc, lo, hi, 0, p.Panels())
}

// GemmBiasPanels is GemmBias restricted to the columns of panels [p0, p1) (columns
// [p0·NR, min(p1·NR, N))): threads split a product with few rows (an M=1 fully connected
// layer) by columns this way.
func (p *PackedB) GemmBiasPanels(m int, a []float32, lda int, bias []float32, c []float32, ldc int, lo, hi float32, p0, p1 int) {
	k, n := p.K, p.N
	if m == 0 || n == 0 || p0 >= p1 {
		return
	}
	if k == 0 { // an empty product: C is the clamped bias
		for i := 0; i < m; i++ {
			for j := p0 * NR; j < min(p1*NR, n); j++ {
				var x float32
				if bias != nil {
					x = bias[j]
				}
				c[i*ldc+j] = min(max(x, lo), hi)
			}
		}
		return
	}
	mr := biasMR
	var tile [14 * NR]float32
	var tailBias [NR]float32 // the last panel's bias, zero padded (or zeros for no bias)
	if bias != nil && (p1-1)*NR < n {
		copy(tailBias[:], bias[(p1-1)*NR:n])
	}
	var scratch []float32
	// Row tiles outside, panels inside: the MR×K slice of A stays in L1 while the packed weights
	// stream past it (as XNNPACK's kernels loop), instead of A being re-read once per panel.
	for i0 := 0; i0 < m; i0 += mr {
		rows := min(mr, m-i0)
		arows, astride, kr := a[i0*lda:], lda, rows
		if rows < mr && !rowKernels {
			// Only full tiles have a kernel here: run one over a zero-padded copy.
			if scratch == nil {
				scratch = make([]float32, mr*k)
			}
			clear(scratch)
			for r := 0; r < rows; r++ {
				copy(scratch[r*k:(r+1)*k], a[(i0+r)*lda:(i0+r)*lda+k])
			}
			arows, astride, kr = scratch, k, mr
		}
		for j := p0; j < p1; j++ {
			panel := p.panels[j*k*NR : (j+1)*k*NR]
			bpanel := tailBias[:]
			if bias != nil && (j+1)*NR <= n {
				bpanel = bias[j*NR : (j+1)*NR]
			}
			cols := min(NR, n-j*NR)
			if kr == rows && cols == NR && len(c) >= (i0+kr-1)*ldc+j*NR+NR {
				microkernelBias(kr, arows, astride, panel, bpanel, c[i0*ldc+j*NR:], ldc, k, lo, hi)
				continue
			}
			microkernelBias(kr, arows, astride, panel, bpanel, tile[:], NR, k, lo, hi)
			for r := 0; r < rows; r++ {
				copy(c[(i0+r)*ldc+j*NR:(i0+r)*ldc+j*NR+cols], tile[r*NR:r*NR+cols])
			}
		}
	}
}

// clampGo is the scalar clamp with the vector kernel's NaN behaviour: VMAXPS returns its second
// source, the bound, when an element is NaN, so a NaN becomes lo.
func clampGo(d []float32, lo, hi float32) {
	for i, x := range d {
		if !(x > lo) {
			x = lo
		}
		if !(x < hi) {
			x = hi
		}
		d[i] = x
	}
}
