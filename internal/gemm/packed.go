package gemm

import (
	"fmt"
	"math"
	"unsafe"
)

// The packed GEMM computes C = clamp(bias + A·B) with B packed once (weights) into panels of
// panelNR columns (32 with AVX-512, else 16), and runs a register-tiled microkernel over it: Go
// assembly where the CPU has it (AVX-512F 7x32, AVX2 6x16), the pure-Go kernel elsewhere and
// under the purego build tag.
const (
	MR = 6  // rows of A per AVX2 / portable microkernel call
	NR = 16 // the narrow panel width; panelNR is a multiple of it
)

// PackedB is a K×N matrix stored as ceil(N/nr) panels of K rows by nr columns, zero padded, except
// that a last panel of at most NR columns is only NR wide (a 16-column tail of a 32-wide layout
// would otherwise compute half a tile of zeros).
type PackedB struct {
	K, N   int
	nr     int
	panels []float32
}

// width is panel j's column count in memory; panel j starts at j·K·nr.
func (p *PackedB) width(j int) int {
	if rest := p.N - j*p.nr; rest <= NR {
		return NR
	}
	return p.nr
}

// PackB packs a row-major K×N matrix b (row stride ldb).
func PackB(b []float32, k, n, ldb int) (*PackedB, error) { return PackBInto(nil, b, k, n, ldb) }

// PackBInto is PackB into dst's memory when dst is not nil and holds enough (a batched product
// packs its operands again on every run: reusing them keeps that allocation-free), else into new
// memory; it returns the packing (dst itself when reused).
func PackBInto(dst *PackedB, b []float32, k, n, ldb int) (*PackedB, error) {
	if k < 0 || n < 0 || (k > 0 && n > 0 && (ldb < n || len(b) < (k-1)*ldb+n)) {
		return nil, fmt.Errorf("gemm: %d values with row stride %d cannot hold a %dx%d matrix", len(b), ldb, k, n)
	}
	p := reusePacked(dst, k, n)
	np := p.Panels()
	for j := 0; j < np; j++ {
		panel, w := p.panels[j*k*p.nr:], p.width(j)
		cols := min(w, n-j*p.nr)
		for kk := 0; kk < k; kk++ {
			copy(panel[kk*w:kk*w+cols], b[kk*ldb+j*p.nr:kk*ldb+j*p.nr+cols])
		}
	}
	return p, nil
}

// reusePacked returns dst set up for a K×N packing, its memory reused when large enough, or a
// new PackedB. Reused memory has its columns past N (the last panel's padding) zeroed: the
// kernels compute them and they must hold numbers.
func reusePacked(dst *PackedB, k, n int) *PackedB {
	p := dst
	if p == nil {
		p = &PackedB{}
	}
	p.K, p.N, p.nr = k, n, panelNR
	np := p.Panels()
	size := 0
	if np > 0 {
		size = (np-1)*k*p.nr + k*p.width(np-1)
	}
	if dst != nil && cap(p.panels) >= size {
		p.panels = p.panels[:size]
		if np > 0 && n-(np-1)*p.nr < p.width(np-1) {
			clear(p.panels[(np-1)*k*p.nr:])
		}
		return p
	}
	p.panels = make([]float32, size)
	return p
}

// PackBT packs the K×N matrix whose transpose bt (N rows of K values, row stride ldb) holds:
// B[kk][j] = bt[j*ldb+kk], as a fully connected filter [out, in] or attention's keys are laid
// out. Each panel is one blocked transpose, with no transposed copy first.
func PackBT(bt []float32, k, n, ldb int) (*PackedB, error) { return PackBTInto(nil, bt, k, n, ldb) }

// PackBTInto is PackBT into dst's memory, as PackBInto.
func PackBTInto(dst *PackedB, bt []float32, k, n, ldb int) (*PackedB, error) {
	if k < 0 || n < 0 || (k > 0 && n > 0 && (ldb < k || len(bt) < (n-1)*ldb+k)) {
		return nil, fmt.Errorf("gemm: %d values with row stride %d cannot hold the transpose of a %dx%d matrix", len(bt), ldb, k, n)
	}
	p := reusePacked(dst, k, n)
	np := p.Panels()
	for j := 0; j < np; j++ {
		w := p.width(j)
		cols := min(w, n-j*p.nr)
		Transpose(p.panels[j*k*p.nr:j*k*p.nr+k*w], w, bt[j*p.nr*ldb:], ldb, cols, k)
	}
	return p, nil
}

// Gemm accumulates C[m×N] += A[m×K]·B for a row-major A (row stride lda) and C (row stride ldc).
// It is the bias kernel without bias or clamp, added to C (tests and benchmarks use it; layers use
// GemmBias, which stores once).
func (p *PackedB) Gemm(m int, a []float32, lda int, c []float32, ldc int) {
	if m == 0 || p.N == 0 || p.K == 0 {
		return
	}
	inf := float32(math.Inf(1))
	t := make([]float32, m*p.N)
	p.GemmBias(m, a, lda, nil, t, p.N, -inf, inf)
	for i := 0; i < m; i++ {
		Add(c[i*ldc:i*ldc+p.N], c[i*ldc:], t[i*p.N:])
	}
}

// kernelBiasGo is the portable bias-and-clamp microkernel over mr rows (any count) of a panel
// nr columns wide.
func kernelBiasGo(mr, nr int, a []float32, lda int, panel, bias []float32, c []float32, ldc int, k int, lo, hi float32) {
	for r := 0; r < mr; r++ {
		t := c[r*ldc : r*ldc+nr : r*ldc+nr]
		copy(t, bias[:nr])
		for kk, av := range a[r*lda : r*lda+k] {
			b := panel[kk*nr : (kk+1)*nr : (kk+1)*nr]
			for j := range t {
				t[j] += av * b[j]
			}
		}
		clampGo(t, lo, hi)
	}
}

// Panels is the number of column panels of B: GemmBiasPanels splits work on them.
func (p *PackedB) Panels() int { return (p.N + p.nr - 1) / p.nr }

// GemmBias computes C[m×N] = clamp(bias + A[m×K]·B, lo, hi): a fully connected layer or a
// convolution with its bias (nil for none) and fused activation in one pass over C.
func (p *PackedB) GemmBias(m int, a []float32, lda int, bias []float32, c []float32, ldc int, lo, hi float32) {
	p.GemmBiasPanels(m, a, lda, bias, c, ldc, lo, hi, 0, p.Panels())
}

// GemmBiasPanels is GemmBias restricted to the columns of panels [p0, p1) (columns
// [p0·nr, min(p1·nr, N)) for the packing's panel width nr): threads split a product with few rows (an M=1 fully connected
// layer) by columns this way.
func (p *PackedB) GemmBiasPanels(m int, a []float32, lda int, bias []float32, c []float32, ldc int, lo, hi float32, p0, p1 int) {
	k, n := p.K, p.N
	if m == 0 || n == 0 || p0 >= p1 {
		return
	}
	nr := p.nr
	if k == 0 { // an empty product: C is the clamped bias
		for i := 0; i < m; i++ {
			for j := p0 * nr; j < min(p1*nr, n); j++ {
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
	var tile [maxTileRows * maxNR]float32
	var tailBias [maxNR]float32 // the last panel's bias, zero padded (or zeros for no bias)
	if bias != nil && (p1-1)*nr < n {
		copy(tailBias[:], bias[(p1-1)*nr:n])
	}
	var scratch []float32
	tileRows := func(i0 int) (arows []float32, astride, kr, rows int) {
		rows = min(mr, m-i0)
		arows, astride, kr = a[i0*lda:], lda, rows
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
		return arows, astride, kr, rows
	}
	run := func(i0, j int, arows []float32, astride, kr, rows int, pf uintptr) {
		w := p.width(j)
		panel := p.panels[j*k*nr : j*k*nr+k*w]
		if pf == 0 {
			pf = uintptr(unsafe.Pointer(&panel[0])) // already in cache: the prefetches cost a load slot each
		}
		bpanel := tailBias[:w]
		if bias != nil && j*nr+w <= n {
			bpanel = bias[j*nr : j*nr+w]
		}
		cols := min(w, n-j*nr)
		if kr == rows && cols == w && len(c) >= (i0+kr-1)*ldc+j*nr+w {
			microkernelBias(kr, w, arows, astride, panel, bpanel, c[i0*ldc+j*nr:], ldc, k, pf, lo, hi)
			return
		}
		microkernelBias(kr, w, arows, astride, panel, bpanel, tile[:], w, k, pf, lo, hi)
		for r := 0; r < rows; r++ {
			copy(c[(i0+r)*ldc+j*nr:(i0+r)*ldc+j*nr+cols], tile[r*w:r*w+cols])
		}
	}
	if (m*k <= panelsOuterMaxA && k*n > rowsOuterMinB) || k*n > rowsOuterMaxB {
		// A small A (a 7x7 layer, a classifier) stays in cache while each panel of the weights
		// is read once, instead of the whole weight matrix streaming past every row tile; and
		// weights too large for L2 (K = 9·512) are better read once than once per row tile.
		// While the row tiles run over panel j, they prefetch panel j+1 into L2, each tile
		// its share, so the next panel's first tile does not wait on L3 or memory.
		tiles := (m + mr - 1) / mr
		for j := p0; j < p1; j++ {
			var next uintptr
			// With one row tile (a decode step's M = 1) each panel is read once, in order: the
			// hardware prefetcher follows that stream, and software prefetches a panel ahead
			// only compete with it (an fp32 110M-parameter decode step, AVX2 EPYC: 31.5 ms with
			// them, 27.4 without).
			if j+1 < p1 && tiles > 1 {
				next = uintptr(unsafe.Pointer(&p.panels[(j+1)*k*nr]))
			}
			share := uintptr(k*p.width(min(j+1, p1-1))*4/tiles) &^ 63
			for t, i0 := 0, 0; i0 < m; t, i0 = t+1, i0+mr {
				arows, astride, kr, rows := tileRows(i0)
				pf := next
				if pf != 0 {
					pf += uintptr(t) * share
				}
				run(i0, j, arows, astride, kr, rows, pf)
			}
		}
		return
	}
	// Row tiles outside, panels inside: the MR×K slice of A stays in L1 while the packed weights
	// stream past it (as XNNPACK's kernels loop), instead of a large A being re-read per panel.
	// Where a kernel runs a row tile over many panels in one call (AVX2), the full panels go
	// that way and only a partial last panel through run.
	for i0 := 0; i0 < m; i0 += mr {
		arows, astride, kr, rows := tileRows(i0)
		j := p0
		if full := min(p1, n/nr); kr == rows && full > j && len(c) >= (i0+kr-1)*ldc+full*nr {
			bb, bs := tailBias[:], 0 // no bias: zeros
			if bias != nil {
				bb, bs = bias[j*nr:], nr
			}
			if panelsVector(kr, nr, arows, astride, p.panels[j*k*nr:full*k*nr], bb, bs, c[i0*ldc+j*nr:], ldc, k, full-j, lo, hi) {
				j = full
			}
		}
		for ; j < p1; j++ {
			run(i0, j, arows, astride, kr, rows, 0)
		}
	}
}

// GemmBias loops over weight panels outside row tiles when A is at most panelsOuterMaxA floats
// (256 KiB, a good part of an L2) and B more than rowsOuterMinB (128 KiB), or B more than
// rowsOuterMaxB (1 MiB). Weights of at most rowsOuterMinB stay in L2 (and mostly L1) while the
// row tiles pass over them, so a layer with few input channels (MobileNet's expansions: K = 16
// to 32, B 6-24 KiB) runs row tiles outside, each over all its panels in one kernel call, as
// XNNPACK does; panels outside would make one call per tile and panel, whose overhead is about
// that of the kernel itself when K is that small (measured: 784x32x192 at 50 GFLOP/s against the
// kernel's 91 in L1).
const (
	panelsOuterMaxA = 64 << 10
	rowsOuterMinB   = 32 << 10
	rowsOuterMaxB   = 256 << 10
)

// clampGo is the scalar clamp with the vector kernels' (and XNNPACK's) NaN behaviour: a NaN
// stays NaN. XNNPACK clamps as max(min, x) then min(max, x), the bound first, and x86 VMAXPS and
// VMINPS return their second source when either is NaN, so a NaN passes both; the comparisons
// below are false for a NaN the same way.
func clampGo(d []float32, lo, hi float32) {
	for i, x := range d {
		if lo > x {
			x = lo
		}
		if hi < x {
			x = hi
		}
		d[i] = x
	}
}

// TileRows is how many rows of A GemmBias computes per kernel call: split work on multiples
// of it so every chunk runs whole tiles.
func TileRows() int { return biasMR }
