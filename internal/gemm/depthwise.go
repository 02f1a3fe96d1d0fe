package gemm

import (
	"errors"
	"math"
)

// DWTaps is a depthwise convolution's indirection table for one input shape (as XNNPACK builds
// once per shape): for each output pixel, the offset in floats of each tap's input pixel, or -1
// where the tap falls in the padding. Built once, it replaces per-row address arithmetic in Go.
type DWTaps struct {
	offs        []int32
	npix, ntaps int
	n           int // channels per pixel
	need        int // len(x) must be at least this: the largest offset plus n
	geom        *DWGeometry
}

// DWGeometry is the convolution a table was built for (dilation 1, NHWC, one output channel per
// input channel). Given it, Depthwise runs the output pixels whose window lies inside the input
// with a kernel that keeps the weights in registers and needs no table.
type DWGeometry struct {
	N, H, W, C, KH, KW, SH, SW, PT, PL, OH, OW int
}

// SetGeometry records the table's convolution; it reports false (and records nothing) when the
// geometry does not match the table.
func (d *DWTaps) SetGeometry(g DWGeometry) bool {
	if g.N*g.OH*g.OW != d.npix || g.KH*g.KW != d.ntaps || g.C != d.n || g.SH < 1 || g.SW < 1 || g.PT < 0 || g.PL < 0 || g.H < 1 || g.W < 1 {
		return false
	}
	d.geom = &g
	return true
}

// NewDWTaps checks a table of npix×ntaps offsets (negative: padding) into an input of xlen
// floats with n channels per pixel.
func NewDWTaps(offs []int32, npix, ntaps, n, xlen int) (*DWTaps, error) {
	if npix < 0 || ntaps < 1 || n < 1 || len(offs) != npix*ntaps {
		return nil, errors.New("gemm: depthwise table size disagrees with its pixel and tap counts")
	}
	need := 0
	for _, o := range offs {
		if o >= 0 {
			need = max(need, int(o)+n)
		}
	}
	if need > xlen || xlen > math.MaxInt32 {
		return nil, errors.New("gemm: depthwise table reads past its input")
	}
	return &DWTaps{offs: offs, npix: npix, ntaps: ntaps, n: n, need: need}, nil
}

// Depthwise computes output pixels [p0, p1) of the table into out ((p1-p0)×n values):
// out[(p-p0)*n+c] = clamp(bias[c] + Σ_t in(p,t)[c]·w[t*wstride+c], lo, hi), where in(p,t) is x
// from the tap's offset, or zero (at least n zeros) for padding. bias holds n values.
func (d *DWTaps) Depthwise(out, x []float32, p0, p1 int, w []float32, wstride int, bias, zero []float32, lo, hi float32) error {
	n, nt := d.n, d.ntaps
	if p0 < 0 || p1 > d.npix || p0 > p1 || len(out) < (p1-p0)*n || len(x) < d.need || len(zero) < n || len(bias) < n ||
		wstride < n || len(w) < (nt-1)*wstride+n {
		return errors.New("gemm: depthwise operand sizes disagree with the table")
	}
	if p0 == p1 {
		return nil
	}
	if g := d.geom; g != nil && g.KH == g.KW && wstride == n && len(x) >= g.N*g.H*g.W*g.C {
		d.depthwiseRows(out, x, p0, p1, w, bias, zero, lo, hi)
		return nil
	}
	d.depthwiseTable(out, x, p0, p1, w, wstride, bias, zero, lo, hi)
	return nil
}

// depthwiseRows splits [p0, p1) at output rows and runs each row's interior pixels (window inside
// the input) with the register-weights kernel, the border ones through the table.
func (d *DWTaps) depthwiseRows(out, x []float32, p0, p1 int, w, bias, zero []float32, lo, hi float32) {
	g, n := d.geom, d.n
	k := g.KH
	for p := p0; p < p1; {
		r := p / g.OW
		rowEnd := min((r+1)*g.OW, p1)
		b, oh := r/g.OH, r%g.OH
		ih0 := oh*g.SH - g.PT
		a, e := 0, 0 // interior output columns [a, e) of this row
		if ih0 >= 0 && ih0+k <= g.H && g.W-k+g.PL >= 0 {
			a = (g.PL + g.SW - 1) / g.SW
			e = min(g.OW, (g.W-k+g.PL)/g.SW+1)
		}
		a, e = max(a+r*g.OW, p), min(e+r*g.OW, rowEnd)
		if a >= e {
			d.depthwiseTable(out[(p-p0)*n:], x, p, rowEnd, w, n, bias, zero, lo, hi)
			p = rowEnd
			continue
		}
		if p < a {
			d.depthwiseTable(out[(p-p0)*n:], x, p, a, w, n, bias, zero, lo, hi)
		}
		iw0 := (a-r*g.OW)*g.SW - g.PL
		in := x[((b*g.H+ih0)*g.W+iw0)*g.C:]
		npix, instep, rowstride := e-a, g.SW*g.C, g.W*g.C
		o := out[(a-p0)*n : (e-p0)*n]
		if (npix-1)*instep+(k-1)*rowstride+k*n > len(in) || !dwDirectVector(k, o, in, npix, instep, rowstride, n, w[:k*k*n], bias[:n], lo, hi) {
			d.depthwiseTable(o, x, a, e, w, n, bias, zero, lo, hi)
		}
		if e < rowEnd {
			d.depthwiseTable(out[(e-p0)*n:], x, e, rowEnd, w, n, bias, zero, lo, hi)
		}
		p = rowEnd
	}
}

// depthwiseTable computes pixels [p0, p1) through the indirection table into out.
func (d *DWTaps) depthwiseTable(out, x []float32, p0, p1 int, w []float32, wstride int, bias, zero []float32, lo, hi float32) {
	n, nt := d.n, d.ntaps
	offs := d.offs[p0*nt : p1*nt]
	if depthwiseVector(out, x, zero, offs, p1-p0, nt, w, wstride, bias, n, lo, hi) {
		return
	}
	for p := 0; p < p1-p0; p++ {
		o := out[p*n : (p+1)*n]
		copy(o, bias[:n])
		for t, off := range offs[p*nt : (p+1)*nt] {
			in := zero[:n]
			if off >= 0 {
				in = x[off : int(off)+n]
			}
			wt := w[t*wstride : t*wstride+n]
			for c := range o {
				o[c] += in[c] * wt[c]
			}
		}
		clampGo(o, lo, hi)
	}
}
