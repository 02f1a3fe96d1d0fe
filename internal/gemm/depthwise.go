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
	offs := d.offs[p0*nt : p1*nt]
	if depthwiseVector(out, x, zero, offs, p1-p0, nt, w, wstride, bias, n, lo, hi) {
		return nil
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
	return nil
}
