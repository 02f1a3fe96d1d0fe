package gemm

import "fmt"

// QDW is a statically quantized depthwise convolution (one output channel per input channel)
// bound to its filter and requantization; immutable once made. Each output pixel reads its
// window through a table of tap offsets into the NHWC input (negative: a padding tap, which
// reads a row of the input zero point, so that its (x - x_zp) term is 0). XNNPACK's AVX-512
// depthwise kernels sign-extend to int32 and multiply in int32; so do both kernel sets here.
type QDW struct {
	C, Taps int
	w       []int32   // [taps][cpad]
	bias    []int32   // bias less x_zp·Σ_taps w, [cpad]
	scale   []float32 // [cpad]
	lo, hi  float32
	zp      int32
	zrow    []int8 // the input zero point, C times
}

// NewQDW binds a depthwise layer: w is [taps, C] (kernel rows and columns, then channels),
// bias nil or C values, scale the C requantization scales, and the zero points and output range
// as for NewQS8.
func NewQDW(w, bias []int32, scale []float32, taps, c int, xzp, yzp, qmin, qmax int32) (*QDW, error) {
	if taps < 1 || c < 1 || len(w) != taps*c || (bias != nil && len(bias) != c) || len(scale) != c || qmin > qmax || xzp < -128 || xzp > 127 {
		return nil, fmt.Errorf("%w: depthwise filter of %d values for %d taps x %d channels, %d biases, %d scales", ErrQShape, len(w), taps, c, len(bias), len(scale))
	}
	cp := (c + 15) &^ 15
	q := &QDW{C: c, Taps: taps, w: make([]int32, taps*cp), bias: make([]int32, cp), scale: make([]float32, cp),
		lo: float32(qmin - yzp), hi: float32(qmax - yzp), zp: yzp, zrow: make([]int8, cp)}
	for ch := range c {
		var b, s int32
		if bias != nil {
			b = bias[ch]
		}
		for t := range taps {
			v := w[t*c+ch]
			q.w[t*cp+ch] = v
			s += v
		}
		q.bias[ch] = b - xzp*s
		q.zrow[ch] = int8(xzp)
	}
	copy(q.scale, scale)
	return q, nil
}

// WithRange is q with the output range [qmin, qmax] in codes.
func (q *QDW) WithRange(qmin, qmax int32) *QDW {
	c := *q
	c.lo, c.hi = float32(qmin-q.zp), float32(qmax-q.zp)
	return &c
}

// Run computes npix output pixels: pixel i reads taps at offs[i·Taps:] (input offsets of a
// pixel's channel 0, negative for padding) and writes its C codes at out[i·ldo:].
func (q *QDW) Run(x []int8, offs []int32, npix int, out []int8, ldo int) error {
	if npix < 0 || len(offs) < npix*q.Taps || ldo < q.C || (npix > 0 && (npix-1)*ldo+q.C > len(out)) {
		return fmt.Errorf("%w: depthwise of %d pixels (%d taps each, %d offsets) into %d codes (ldo %d)", ErrQShape, npix, q.Taps, len(offs), len(out), ldo)
	}
	if npix == 0 {
		return nil
	}
	for _, o := range offs[:npix*q.Taps] {
		if int(o)+q.C > len(x) {
			return fmt.Errorf("%w: depthwise tap offset %d of %d channels in an input of %d codes", ErrQShape, o, q.C, len(x))
		}
	}
	dwTile(q, x, offs, npix, out, ldo)
	return nil
}

// dwTileGo is the portable depthwise kernel.
func dwTileGo(q *QDW, x []int8, offs []int32, npix int, out []int8, ldo int) {
	cp := len(q.bias)
	acc := make([]int32, q.C)
	for i := range npix {
		copy(acc, q.bias[:q.C])
		for t, o := range offs[i*q.Taps : (i+1)*q.Taps] {
			src := q.zrow[:q.C]
			if o >= 0 {
				src = x[o:][:q.C]
			}
			w := q.w[t*cp:][:q.C]
			for ch, v := range src {
				acc[ch] += int32(v) * w[ch]
			}
		}
		row := out[i*ldo:][:q.C]
		for ch, v := range acc {
			row[ch] = int8(requantFP32(v, q.scale[ch], q.lo, q.hi, q.zp))
		}
	}
}
