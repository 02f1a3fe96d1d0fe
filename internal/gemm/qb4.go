package gemm

import (
	"fmt"
	"math"
)

// QB4Packed is a [K, N] filter of 4-bit values in [-8, 7] with one scale per block of Block
// input channels of each output channel (XNNPACK's qb4w, for qd8 × qb4w fully connected layers),
// packed once: per panel of 16 output channels, 64 bytes per 8 input channels, each byte two
// nibbles w+8 (the low one the first group of 4 channels), with each block's int32 start
// -128·Σ_block w (the kernels read codes flipped to unsigned, x+128) and its scales beside it.
// Immutable once made.
type QB4Packed struct {
	K, N, Block int
	nb, panels  int
	w           []uint8   // panels × K/8 × 64
	bbias       []int32   // panels × nb × 16
	bscale      []float32 // panels × nb × 16
}

// PackQB4 packs w, row-major [k, n] values in [-8, 7] (held as int32), with scales[o·(k/block)+b]
// the scale of block b of output channel o. k and block must be multiples of 8, k of block.
func PackQB4(w []int32, k, n, block int, scales []float32) (*QB4Packed, error) {
	if k < 0 || n < 0 || block < 8 || block%8 != 0 || k%block != 0 || (k > 0 && n > len(w)/k) || len(w) != k*n || len(scales) != n*(k/block) {
		return nil, fmt.Errorf("%w: 4-bit filter of %d values for [%d, %d] in blocks of %d with %d scales", ErrQShape, len(w), k, n, block, len(scales))
	}
	p := &QB4Packed{K: k, N: n, Block: block, nb: k / block, panels: (n + QPanel - 1) / QPanel}
	p.w = make([]uint8, p.panels*(k/8)*64)
	p.bbias = make([]int32, p.panels*p.nb*QPanel)
	p.bscale = make([]float32, p.panels*p.nb*QPanel)
	for i := range k {
		pair, half, j := i/8, (i/4)%2, i%4
		for o, v := range w[i*n : (i+1)*n] {
			if v < -8 || v > 7 {
				return nil, fmt.Errorf("%w: weight [%d, %d] = %d is not a 4-bit value", ErrQShape, i, o, v)
			}
			pn, l := o/QPanel, o%QPanel
			p.w[(pn*(k/8)+pair)*64+l*4+j] |= uint8(v+8) << (4 * half)
			p.bbias[(pn*p.nb+i/block)*QPanel+l] -= 128 * v
		}
	}
	for o := range n {
		for b := range p.nb {
			p.bscale[((o/QPanel)*p.nb+b)*QPanel+o%QPanel] = scales[o*p.nb+b]
		}
	}
	return p, nil
}

// Panels is the number of 16-channel panels (Run takes a range of them).
func (p *QB4Packed) Panels() int { return p.panels }

// Run computes, for m rows of a (codes flipped to unsigned: x+128, lda apart) and channels of
// panels [p0, p1), v = ksum[o]·nzp[r], then per block v = fma(float(Σ_block x·w), scale, v),
// in fp32, stored at c[r·ldc + o]. ksum is padded to whole panels; nzp[r] is -x_zp of row r.
func (p *QB4Packed) Run(m int, a []uint8, lda int, ksum, nzp []float32, c []float32, ldc int, p0, p1 int) error {
	if m < 0 || p0 < 0 || p1 > p.panels || p0 > p1 || lda < p.K || ldc < p.N || len(ksum) < p.panels*QPanel || len(nzp) < m {
		return fmt.Errorf("%w: %d rows (lda %d, ldc %d), panels [%d, %d) of %d, K %d N %d", ErrQShape, m, lda, ldc, p0, p1, p.panels, p.K, p.N)
	}
	if m > 0 && ((m-1) > (len(a)-p.K)/lda || len(a) < p.K || (m-1) > (len(c)-p.N)/ldc || len(c) < p.N) {
		return fmt.Errorf("%w: %d rows of %d (lda %d) from %d codes into %d outputs (ldc %d)", ErrQShape, m, p.K, lda, len(a), len(c), ldc)
	}
	for pn := p0; pn < p1; pn += 4 {
		v := min(4, p1-pn)
		rows := qb4MaxRows(v)
		for r0 := 0; r0 < m; r0 += rows {
			r := min(rows, m-r0)
			qb4Tile(p, a[r0*lda:], lda, ksum[pn*QPanel:], nzp[r0:], c[r0*ldc+pn*QPanel:], ldc, r, pn, v)
		}
	}
	return nil
}

// qb4MaxRows is the row count of a tile of v panels (the assembly kernels' register budget).
func qb4MaxRows(v int) int { return min(4, 10/v) }

// qb4TileGo is the portable tile.
func qb4TileGo(p *QB4Packed, a []uint8, lda int, ksum, nzp []float32, c []float32, ldc, rows, pn, v int) {
	kp := p.K / 8
	for r := range rows {
		ar := a[r*lda:][:p.K]
		for j := range v {
			n := min(QPanel, p.N-(pn+j)*QPanel)
			var out [QPanel]float32
			for o := range QPanel {
				out[o] = ksum[j*QPanel+o] * nzp[r]
			}
			w := p.w[(pn+j)*kp*64:][:kp*64]
			for b := range p.nb {
				var acc [QPanel]int32
				copy(acc[:], p.bbias[((pn+j)*p.nb+b)*QPanel:][:QPanel])
				for pair := b * p.Block / 8; pair < (b+1)*p.Block/8; pair++ {
					wp := w[pair*64:][:64]
					x := ar[pair*8:][:8]
					for o := range QPanel {
						wo := wp[o*4:][:4]
						for jj := range 4 {
							acc[o] += int32(x[jj])*(int32(wo[jj]&15)-8) + int32(x[4+jj])*(int32(wo[jj]>>4)-8)
						}
					}
				}
				sc := p.bscale[((pn+j)*p.nb+b)*QPanel:][:QPanel]
				for o := range QPanel {
					out[o] = FMA32(float32(acc[o]), sc[o], out[o])
				}
			}
			copy(c[r*ldc+j*QPanel:][:n], out[:n])
		}
	}
}

// FMA32 is a·b + c rounded once to fp32, as VFMADD computes it. The product is exact in fp64
// and so is the sum's error (TwoSum); a sum that lies exactly halfway between two fp32 values
// in fp64 but not exactly is moved off the tie toward its true value before rounding, so the
// result is the correctly rounded one (normal results; a subnormal fp32 result may be off by
// its last bit, as fp64 → fp32 conversion ties are then at other bits).
func FMA32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	r := float32(s)
	if float64(r) == s || math.IsInf(s, 0) || math.IsNaN(s) {
		return r
	}
	bits := math.Float64bits(s)
	if bits&(1<<29-1) != 1<<28 { // not an fp32 tie
		return r
	}
	bb := s - p
	e := (p - (s - bb)) + (float64(c) - bb)
	if e == 0 {
		return r
	}
	if (e > 0) == (s > 0) {
		bits++
	} else {
		bits--
	}
	return float32(math.Float64frombits(bits))
}
