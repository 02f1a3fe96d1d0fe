package gemm

import "errors"

// GroupFilter is a grouped convolution's filter packed for GroupConv, as XNNPACK packs a
// grouped IGEMM's weights: per group, per block of groupNR output channels, the bias block and
// then ntaps·gin rows of groupNR weights (zeros past the group's gout channels).
type GroupFilter struct {
	groups, gin, gout, ntaps, nb int
	packed                       []float32
}

// groupNR is the output-channel block of the grouped kernel: one AVX2 register.
const groupNR = 8

// groupMR is its pixel block: eight accumulator registers.
const groupMR = 8

// PackGroupFilter packs w, [groups·gout][ntaps][gin] (a conv filter [O, KH, KW, I] with ntaps =
// KH·KW), and bias (groups·gout values, or nil for none).
func PackGroupFilter(w, bias []float32, groups, gout, ntaps, gin int) (*GroupFilter, error) {
	if groups < 1 || gout < 1 || ntaps < 1 || gin < 1 || len(w) != groups*gout*ntaps*gin || (bias != nil && len(bias) != groups*gout) {
		return nil, errors.New("gemm: grouped filter size disagrees with its groups and channels")
	}
	nb := (gout + groupNR - 1) / groupNR
	blk := (1 + ntaps*gin) * groupNR
	f := &GroupFilter{groups: groups, gin: gin, gout: gout, ntaps: ntaps, nb: nb, packed: make([]float32, groups*nb*blk)}
	for g := 0; g < groups; g++ {
		for b := 0; b < nb; b++ {
			dst := f.packed[(g*nb+b)*blk:][:blk]
			for j := 0; j < groupNR && b*groupNR+j < gout; j++ {
				o := g*gout + b*groupNR + j
				if bias != nil {
					dst[j] = bias[o]
				}
				for t := 0; t < ntaps; t++ {
					for i := 0; i < gin; i++ {
						dst[(1+t*gin+i)*groupNR+j] = w[(o*ntaps+t)*gin+i]
					}
				}
			}
		}
	}
	return f, nil
}

// GroupConv computes output pixels [p0, p1) of a grouped convolution over the table's input
// into out (pixel p's groups·gout values at out[(p-p0)*ldo:]): out[p, g·gout+o] = clamp(bias +
// Σ_t Σ_i in(p,t)[g·gin+i]·w[g·gout+o, t, i], lo, hi), summed tap by tap, channel by channel
// from the bias (XNNPACK's IGEMM order), in(p,t) the tap's input pixel or zero (at least
// groups·gin zeros) in the padding. Blocks of 8 pixels × 8 output channels of one group run
// on a register-tile kernel fed by the table, with no patch matrix (grouped convolution through
// im2col copied every tap's few channels, then multiplied 8 columns on a 16- or 32-wide panel).
func (d *DWTaps) GroupConv(out []float32, ldo int, x []float32, p0, p1 int, f *GroupFilter, zero []float32, lo, hi float32) error {
	oc := f.groups * f.gout
	if f.groups*f.gin != d.n || f.ntaps != d.ntaps || p0 < 0 || p1 > d.npix || p0 > p1 || ldo < oc ||
		(p1 > p0 && len(out) < (p1-p0-1)*ldo+oc) || len(x) < d.need || len(zero) < d.n {
		return errors.New("gemm: grouped convolution operand sizes disagree with the table")
	}
	nt, gin, nb := d.ntaps, f.gin, f.nb
	blk := (1 + nt*gin) * groupNR
	var offs [groupMR * 64]int64 // per tap, groupMR byte offsets (-1: padding); taps ≤ 64 here
	var tile [groupMR * groupNR]float32
	for q0 := p0; q0 < p1; q0 += groupMR {
		q1 := min(q0+groupMR, p1)
		if nt <= 64 { // (larger kernels run the Go loop below)
			for t := 0; t < nt; t++ {
				for r := 0; r < groupMR; r++ {
					o := int64(-1)
					if q0+r < q1 {
						if v := d.offs[(q0+r)*nt+t]; v >= 0 {
							o = 4 * int64(v)
						}
					}
					offs[t*groupMR+r] = o
				}
			}
		}
		for g := 0; g < f.groups; g++ {
			for b := 0; b < nb; b++ {
				w := f.packed[(g*nb+b)*blk:][:blk]
				c0 := g*f.gout + b*groupNR
				nc := min(groupNR, f.gout-b*groupNR)
				full := q1-q0 == groupMR && nc == groupNR
				dst, ld := tile[:], groupNR
				if full {
					dst, ld = out[(q0-p0)*ldo+c0:], ldo
				}
				if nt > 64 || !groupVector(dst, ld, x[g*gin:], zero[g*gin:], offs[:nt*groupMR], nt, gin, w, lo, hi) {
					groupConvGo(dst, ld, x, zero, d.offs, q0, q1, nt, g*gin, gin, w, lo, hi)
				}
				if !full {
					for r := 0; r < q1-q0; r++ {
						copy(out[(q0-p0+r)*ldo+c0:][:nc], tile[r*groupNR:][:nc])
					}
				}
			}
		}
	}
	return nil
}

// groupConvGo is one 8×8 block of GroupConv in Go: pixels [q0, q1) (at most groupMR) from
// the table, the group's input channels [c, c+gin), the block's packed weights w, into dst rows
// at stride ld.
func groupConvGo(dst []float32, ld int, x, zero []float32, offs []int32, q0, q1, nt, c, gin int, w []float32, lo, hi float32) {
	for r := 0; r < q1-q0; r++ {
		var acc [groupNR]float32
		copy(acc[:], w[:groupNR])
		for t := 0; t < nt; t++ {
			in := zero[c : c+gin]
			if v := offs[(q0+r)*nt+t]; v >= 0 {
				in = x[int(v)+c : int(v)+c+gin]
			}
			wt := w[(1+t*gin)*groupNR:][:gin*groupNR]
			for i, a := range in {
				wr := wt[i*groupNR : (i+1)*groupNR : (i+1)*groupNR]
				for j := range acc {
					acc[j] += a * wr[j]
				}
			}
		}
		d := dst[r*ld:][:groupNR]
		for j, v := range acc {
			d[j] = minps(hi, maxps(lo, v)) // a NaN stays NaN, as in the kernels
		}
	}
}
