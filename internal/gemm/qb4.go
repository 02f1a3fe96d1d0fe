package gemm

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"
)

// QB4Packed is a [K, N] filter of 4-bit values in [-8, 7] with one bf16 scale per block of
// Block input channels of each output channel (XNNPACK's qb4w, for qd8 × qb4w fully connected
// layers), packed once: per panel of 16 output channels, 64 bytes per 8 input channels, each
// byte two nibbles w+8 (the low one the first group of 4 channels), and each block's 16 scales
// as bf16 (32 bytes). A single-row layer is memory-bound, so the packing is the fewest bytes
// per weight (0.5 + 2/Block): the kernels multiply the unsigned nibbles (w+8) by the signed
// codes and start each block's int32 sum from -8·Σ_block x, a per-row value (Run computes it),
// so there is no per-channel table besides the scales. Immutable once made.
type QB4Packed struct {
	K, N, Block int
	nb, panels  int
	w           []uint8  // panels × K/8 × 64
	bscale      []uint16 // panels × nb × 16, bf16
}

// PackQB4 packs w, row-major [k, n] values in [-8, 7] (held as int32), with scales[o·(k/block)+b]
// the scale of block b of output channel o, each a bf16 value (widened exactly; others are
// refused). k and block must be multiples of 8, k of block.
func PackQB4(w []int32, k, n, block int, scales []float32) (*QB4Packed, error) {
	if k < 0 || n < 0 || block < 8 || block%8 != 0 || k%block != 0 || (k > 0 && n > len(w)/k) || len(w) != k*n || len(scales) != n*(k/block) {
		return nil, fmt.Errorf("%w: 4-bit filter of %d values for [%d, %d] in blocks of %d with %d scales", ErrQShape, len(w), k, n, block, len(scales))
	}
	p := &QB4Packed{K: k, N: n, Block: block, nb: k / block, panels: (n + QPanel - 1) / QPanel}
	p.w = make([]uint8, p.panels*(k/8)*64)
	p.bscale = make([]uint16, p.panels*p.nb*QPanel)
	for i := range k {
		pair, half, j := i/8, (i/4)%2, i%4
		for o, v := range w[i*n : (i+1)*n] {
			if v < -8 || v > 7 {
				return nil, fmt.Errorf("%w: weight [%d, %d] = %d is not a 4-bit value", ErrQShape, i, o, v)
			}
			pn, l := o/QPanel, o%QPanel
			p.w[(pn*(k/8)+pair)*64+l*4+j] |= uint8(v+8) << (4 * half)
		}
	}
	for o := range n {
		for b := range p.nb {
			bits := math.Float32bits(scales[o*p.nb+b])
			if bits&0xFFFF != 0 {
				return nil, fmt.Errorf("%w: scale of block %d of channel %d (%v) is not a bf16 value", ErrQShape, b, o, scales[o*p.nb+b])
			}
			p.bscale[((o/QPanel)*p.nb+b)*QPanel+o%QPanel] = uint16(bits >> 16)
		}
	}
	return p, nil
}

// Panels is the number of 16-channel panels (Run takes a range of them).
func (p *QB4Packed) Panels() int { return p.panels }

// Run computes, for m rows of a (int8 codes, lda apart) and channels of panels [p0, p1),
// v = ksum[o]·nzp[r], then per block v = fma(float(Σ_block x·w), scale, v), in fp32, stored at
// c[r·ldc + o]. ksum is padded to whole panels; nzp[r] is -x_zp of row r. bs is BlockSums of
// the same rows (a caller splitting a layer computes it once), or nil to compute it here.
func (p *QB4Packed) Run(m int, a []int8, lda int, bs []int32, ksum, nzp []float32, c []float32, ldc int, p0, p1 int) error {
	if m < 0 || p0 < 0 || p1 > p.panels || p0 > p1 || lda < p.K || ldc < p.N || len(ksum) < p.panels*QPanel || len(nzp) < m || (bs != nil && len(bs) != p.nb*m) {
		return fmt.Errorf("%w: %d rows (lda %d, ldc %d, %d block sums), panels [%d, %d) of %d, K %d N %d", ErrQShape, m, lda, ldc, len(bs), p0, p1, p.panels, p.K, p.N)
	}
	if m > 0 && ((m-1) > (len(a)-p.K)/lda || len(a) < p.K || (m-1) > (len(c)-p.N)/ldc || len(c) < p.N) {
		return fmt.Errorf("%w: %d rows of %d (lda %d) from %d codes into %d outputs (ldc %d)", ErrQShape, m, p.K, lda, len(a), len(c), ldc)
	}
	if m == 0 || p0 == p1 {
		return nil
	}
	if bs == nil {
		bs = make([]int32, p.nb*m)
		p.blockSums(m, a, lda, bs)
	}
	step := qb4Step(m)
	for pn := p0; pn < p1; pn += step {
		v := min(step, p1-pn)
		rows := qb4MaxRows(v)
		for r0 := 0; r0 < m; r0 += rows {
			r := min(rows, m-r0)
			qb4Tile(p, a[r0*lda:], lda, bs[r0:], m, ksum[pn*QPanel:], nzp[r0:], c[r0*ldc+pn*QPanel:], ldc, r, pn, v)
		}
	}
	return nil
}

// BlockSums returns the kernels' per-row block starts for m rows of a (lda apart, as Run
// takes them): bs[b·m + r] = -8·Σ_{block b} x[r]. The kernels' sums are Σ x·(w+8); less this,
// they are Σ x·w exactly.
func (p *QB4Packed) BlockSums(m int, a []int8, lda int) ([]int32, error) {
	if m < 0 || lda < p.K || (m > 0 && ((m-1) > (len(a)-p.K)/lda || len(a) < p.K)) {
		return nil, fmt.Errorf("%w: block sums of %d rows of %d (lda %d) from %d codes", ErrQShape, m, p.K, lda, len(a))
	}
	bs := make([]int32, p.nb*m)
	p.blockSums(m, a, lda, bs)
	return bs, nil
}

// blockSums fills bs (BlockSums) from the sums of each 8 codes flipped to unsigned (x+128):
// the assembly's for whole 64-byte chunks of a row, the rest a word at a time, added in 16-bit
// lanes. Σ x = Σ (x+128) - 128·Block.
func (p *QB4Packed) blockSums(m int, a []int8, lda int, bs []int32) {
	const lanes = 0x00FF00FF00FF00FF
	var buf [512]int32 // the group sums of rows up to 4096 codes without an allocation
	g := buf[:0]
	if p.K/8 > len(buf) {
		g = make([]int32, p.K/8)
	}
	g = g[:p.K/8]
	for r := range m {
		ar := a[r*lda:][:p.K]
		done := groupSums(g, ar) / 8
		raw := unsafe.Slice((*byte)(unsafe.Pointer(&ar[0])), p.K)
		for i := done; i < len(g); i++ {
			u := binary.LittleEndian.Uint64(raw[8*i:]) ^ 0x8080808080808080
			h := u&lanes + (u>>8)&lanes // 4 lanes of at most 510
			g[i] = int32((h * 0x0001000100010001) >> 48)
		}
		gb := p.Block / 8
		for b := range p.nb {
			var s int32
			for _, v := range g[b*gb : (b+1)*gb] {
				s += v
			}
			bs[b*m+r] = -8 * (s - 128*int32(p.Block))
		}
	}
}

// qb4MaxRows is the row count of a tile of v panels (the assembly kernels' register budget,
// gen_qgemm.go's qb4Rows).
func qb4MaxRows(v int) int {
	if qb4a2Active() {
		return min(qb4a2Rows, qb4a2MaxRV/v)
	}
	return min(6, (28-2*v)/(2*v))
}

// qb4a2MaxRV is the largest rows·panels of an AVX2 tile (qb4avx2_gen.go: 2·r·v int32 sums in
// 16 ymm registers), and qb4a2Rows the rows of the one-panel tiles Run takes.
const qb4a2MaxRV = 5

var qb4a2Rows = 5

// qb4Step is how many panels a tile of Run takes for m rows. One row (an LLM's token) reads
// each weight once whatever the tile, and 4 panels give it the most independent sums. With
// more rows a tile's cost per multiply is its unpacking (3 operations per panel per 8 input
// channels, shared by the tile's rows) and its broadcasts (2 loads per row, shared by its
// panels): 6 rows of 2 panels do a third of the unpacking per VPDPBUSD of 2 rows of 4 with
// fewer loads than 8 rows of 1 (XNNPACK's 8x16c8 tile; measured at M = 64, K = N = 2048 on
// Zen 5: 6x2 0.79 ms, 8x1 0.92, 2x4 0.95).
func qb4Step(m int) int {
	if qb4a2Active() {
		if m == 1 {
			return 4
		}
		return 1
	}
	if m <= 2 {
		return 4
	}
	return 2
}

// qb4TileGo is the portable tile; bs[b·bstep + r] is row r's block-b start (Run's bs).
func qb4TileGo(p *QB4Packed, a []int8, lda int, bs []int32, bstep int, ksum, nzp []float32, c []float32, ldc, rows, pn, v int) {
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
				for o := range acc {
					acc[o] = bs[b*bstep+r]
				}
				for pair := b * p.Block / 8; pair < (b+1)*p.Block/8; pair++ {
					wp := w[pair*64:][:64]
					x := ar[pair*8:][:8]
					for o := range QPanel {
						wo := wp[o*4:][:4]
						for jj := range 4 {
							acc[o] += int32(x[jj])*int32(wo[jj]&15) + int32(x[4+jj])*int32(wo[jj]>>4)
						}
					}
				}
				sc := p.bscale[((pn+j)*p.nb+b)*QPanel:][:QPanel]
				for o := range QPanel {
					out[o] = FMA32(float32(acc[o]), math.Float32frombits(uint32(sc[o])<<16), out[o])
				}
			}
			copy(c[r*ldc+j*QPanel:][:n], out[:n])
		}
	}
}

// FMA32 is a·b + c rounded once to fp32, as VFMADD computes it. The product is exact in fp64
// and so is the sum's error (TwoSum). The fp64 sum rounds to fp32 as the exact value does
// unless it lies exactly halfway between two fp32 values (normal or subnormal) while the
// exact value does not: then the error says which side it is on.
func FMA32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	r := float32(s)
	if float64(r) == s || math.IsInf(s, 0) || math.IsNaN(s) {
		return r
	}
	// o is r's fp32 neighbour on s's side, m their midpoint (exact in fp64); past the largest
	// fp32 value (r infinite) the neighbour is it and the midpoint half its ulp above it.
	up := float64(r) < s
	var m float64
	var o float32
	switch {
	case math.IsInf(float64(r), 0):
		o = float32(math.Copysign(math.MaxFloat32, s))
		m = math.Copysign(math.MaxFloat32+0x1p103, s)
	case up:
		o = math.Nextafter32(r, float32(math.Inf(1)))
		m = (float64(r) + float64(o)) / 2
	default:
		o = math.Nextafter32(r, float32(math.Inf(-1)))
		m = (float64(r) + float64(o)) / 2
	}
	if s != m {
		return r
	}
	bb := s - p
	e := (p - (s - bb)) + (float64(c) - bb)
	if e == 0 || (e > 0) != (float64(o) > float64(r)) {
		return r
	}
	return o
}
