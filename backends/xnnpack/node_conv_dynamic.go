package xnnpack

import (
	"fmt"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
)

// Dynamically quantized convolutions (XNNPACKQuantizer's dynamic config on conv2d and
// conv_transpose2d; the official partitioner declines dynamic depthwise and 1-D ones): a Convert
// quantizes each image of the NHWC input with its own parameters (num_nonbatch_dims 3), and a
// Conv2d or ConvTranspose2d multiplies those codes by a constant qcint8 filter, per output
// channel, into fp32.
//
// Arithmetic, as XNNPACK's qdu8_f32_qc8w IGEMM computes it on x86 with AVX-512 VNNI (the C
// kernel qd8-f32-qc8w-igemm-*c8-minmax-avx512vnni-prfm, for convolutions and deconvolutions):
//   - acc = Σ (q - zp)·w over the taps, in int32: XNNPACK adds ksum·zp to Σ q·w, and its padding
//     taps read a buffer filled with the image's zero point, so a tap outside the input adds
//     nothing, as here (the centered code of a padding tap is 0). Exact, in any order.
//   - y = fma(float(acc)·inv_scale, filter_scale[c], bias[c]) (bias 0 without one), then the
//     output range value first, MAXPS(y, min) then MINPS(y, max): a NaN becomes the lower bound.
// Image b uses the parameters of row b of the qdint8 value, as XNNPACK's igemm reads
// quantization_params[batch_index], even when the Convert's num_nonbatch_dims made its rows
// smaller than images (the first rows' parameters then apply to codes quantized with others', as
// in the official runtime); a value with fewer rows than images is refused, where XNNPACK would
// read past its parameters.

// qdconv is a dynamically quantized (transposed) convolution's resolved operands.
type qdconv struct {
	w         []int32 // the filter as stored, [oc, kh, kw, gin]
	wdims     []int
	wt        []int32 // per group [kh·kw·gin, gout] (convFilter), for the patch products
	scales    []float32
	biasID    uint32
	lo, hi    float32
	transpose bool

	// For the call running (a plan runs one Execute at a time; the tasks capture the record).
	geom  convGeom
	xdims []int
	rows  []rowQuant
	bias  []float32
	xi    []int32
	y     []float32
}

// dynamicConv prepares Conv2d or ConvTranspose2d node k on a qdint8 input: a constant qcint8
// filter quantized along its output channels (dim 0), an optional fp32 bias, an fp32 output.
func (p *plan) dynamicConv(k int, n *xnngraph.Node) (runFunc, error) {
	unsupported := func() error { return p.unsupportedQuant(k, n) }
	if n.Conv == nil || len(n.Inputs) < 3 || n.Inputs[1] == xnngraph.InvalidID || p.qof(n.Outputs[0]) != nil ||
		p.g.Values[p.index[n.Outputs[0]]].DType != schema.XNNDatatypexnn_datatype_fp32 {
		return nil, unsupported()
	}
	wi := p.index[n.Inputs[1]]
	w := p.quant[wi]
	if w == nil || !p.isConst[wi] || w.dtype != schema.XNNDatatypexnn_datatype_qcint8 || !w.perChannel() {
		return nil, unsupported()
	}
	wv := &p.g.Values[wi]
	if len(wv.Dims) != 4 {
		return nil, fmt.Errorf("%w: %s filter %v is not 4-d", xnngraph.ErrInvalidBlob, n.OpName(), wv.Dims)
	}
	if w.chDim != 0 {
		return nil, fmt.Errorf("%w: %s filter (value %d) is quantized along dim %d, its output channels are dim 0", ErrUnsupported, n.OpName(), wv.ID, w.chDim)
	}
	if b := n.Inputs[2]; b != xnngraph.InvalidID && p.qof(b) != nil {
		return nil, fmt.Errorf("%w: node %d (%s) on a qdint8 input has a quantized (%s) bias; dynamically quantized layers take an fp32 bias",
			ErrUnsupported, k, n.OpName(), p.g.Values[p.index[b]].DType)
	}
	q := &qdconv{w: p.vals[wi].ints, wdims: p.vals[wi].dims, scales: w.scales, biasID: n.Inputs[2],
		lo: n.OutputMin, hi: n.OutputMax, transpose: n.Op == schema.XNodeUnionXNNConvTranspose2d}
	if len(q.scales) != q.wdims[0] {
		return nil, errorf("%s filter %v has %d scales", n.OpName(), q.wdims, len(q.scales))
	}
	if q.transpose {
		return q.convTranspose, nil
	}
	cp := n.Conv
	if definedAsFullyConnected(n) {
		// XNNPACK's xnn_define_convolution_2d defines this convolution as a fully connected
		// layer, and its qdint8 input as quantized per pixel (num_nonbatch_dims 1; the
		// Convert's rows follow, readByFullyConnectedOnly): the qd8 × qc8w GEMM of linear
		// layers, over the [oc, 1, 1, ic] filter read as [oc, ic].
		oc, ic := q.wdims[0], q.wdims[3]
		if len(q.w) != oc*ic {
			return nil, errorf("%s filter of %d values for dims %v", n.OpName(), len(q.w), q.wdims)
		}
		return (&qdlinear{oc: oc, ic: ic, wt: transposeInts(q.w, oc, ic), scales: q.scales, biasID: q.biasID, lo: q.lo, hi: q.hi}).run, nil
	}
	G, GIC, GOC, KH, KW := int(cp.Groups), int(cp.GroupInputChannels), int(cp.GroupOutputChannels), int(cp.KernelH), int(cp.KernelW)
	if isProduct(q.wdims[0], G, GOC) && isProduct(len(q.w), q.wdims[0], KH, KW, GIC) { // (else the kernel reports the mismatch)
		q.wt = convFilter(q.w, G, KH, KW, GIC, GOC)
	}
	return q.conv, nil
}

// prepare reads the call's input, checks its geometry against the filter, and centers each
// image's codes on its zero point.
func (q *qdconv) prepare(p *plan, n *xnngraph.Node, what string) error {
	x, codes, err := inOf[int8](p, n.Inputs[0])
	if err != nil {
		return err
	}
	if q.geom, err = convGeometry(n, x, q.wdims, what); err != nil {
		return err
	}
	c := &q.geom
	if len(x.rows) < c.N {
		// (XNNPACK would read past its parameters.)
		return errorf("%s input %v is quantized in %d rows; XNNPACK reads one set of parameters per image (%d)", what, x.dims, len(x.rows), c.N)
	}
	q.rows, q.xdims = x.rows, x.dims
	if q.bias, err = convBias(p, n, c.OC); err != nil {
		return err
	}
	img := c.H * c.W * c.C
	if cap(q.xi) < c.N*img {
		q.xi = make([]int32, c.N*img)
	}
	q.xi = q.xi[:c.N*img]
	for b := range c.N {
		zp := x.rows[b].zp
		for i, v := range codes[b*img : (b+1)*img] {
			q.xi[b*img+i] = int32(v) - zp
		}
	}
	return nil
}

// conv runs a convolution as the static one does (convolve's patch matrices, zeros in the
// padding), storing fp32.
func (q *qdconv) conv(p *plan, n *xnngraph.Node) error {
	if err := q.prepare(p, n, "conv"); err != nil {
		return err
	}
	c := &q.geom
	if len(q.wt) != len(q.w) {
		return errorf("conv filter of %d values was regrouped into %d", len(q.w), len(q.wt))
	}
	q.y = p.out(n.Outputs[0], []int{c.N, c.OH, c.OW, c.OC}).data
	convolve[int32](p, c, q.xi, q)
	return nil
}

func (q *qdconv) all(p *plan, pixels int, a []int32, lda int) {
	K, OC := q.geom.KH*q.geom.KW*q.geom.GIC, q.geom.OC
	p.parallel(pixels, 1, pixels*K*OC, func(r0, r1 int) {
		q.product(r0, r1-r0, a[r0*lda:], lda, K, q.wt, OC, 0)
	})
}

func (q *qdconv) block(g, pixel0, pixels int, a []int32, lda int) {
	K, GOC := q.geom.KH*q.geom.KW*q.geom.GIC, q.geom.GOC
	q.product(pixel0, pixels, a, lda, K, q.wt[g*K*GOC:], GOC, g*GOC)
}

func (q *qdconv) done(int, int) {}

// product multiplies the patches of output pixels [pixel0, pixel0+m) (rows of a, lda apart) by
// the k×n matrix b and stores output channels c0..c0+n of each pixel.
func (q *qdconv) product(pixel0, m int, a []int32, lda, k int, b []int32, n, c0 int) {
	acc := make([]int32, n)
	plane := q.geom.OH * q.geom.OW
	for r := range m {
		clear(acc)
		for i, v := range a[r*lda:][:k] {
			if v == 0 {
				continue // a padding tap or a code at the zero point adds nothing
			}
			for o, w := range b[i*n:][:n] {
				acc[o] += v * w
			}
		}
		px := pixel0 + r
		q.store(acc, q.rows[px/max(plane, 1)], q.y[px*q.geom.OC+c0:][:n], c0)
	}
}

// store writes output channels c0.. of one pixel from their accumulators.
func (q *qdconv) store(acc []int32, rq rowQuant, out []float32, c0 int) {
	for o, s := range acc {
		c := c0 + o
		var b float32
		if q.bias != nil {
			b = q.bias[c]
		}
		out[o] = x86Min(x86Max(fma32(float32(s)*rq.scale, q.scales[c], b), q.lo), q.hi)
	}
}

// convTranspose runs a deconvolution: every input pixel's centered codes scattered through the
// filter into int32 accumulators (deconvScatter, as the static kernel), then stored per pixel.
func (q *qdconv) convTranspose(p *plan, n *xnngraph.Node) error {
	if err := q.prepare(p, n, "deconvolution"); err != nil {
		return err
	}
	c := &q.geom
	var err error
	if c.OH, c.OW, err = deconvOutput(q.xdims, c, n.Conv); err != nil {
		return err
	}
	OC := c.OC
	q.y = p.out(n.Outputs[0], []int{c.N, c.OH, c.OW, OC}).data
	acc := make([]int32, len(q.y))
	deconvScatter(acc, q.xi, q.w, c)
	plane := c.OH * c.OW
	for px := 0; px < c.N*plane; px++ {
		q.store(acc[px*OC:(px+1)*OC], q.rows[px/plane], q.y[px*OC:(px+1)*OC], 0)
	}
	return nil
}

// definedAsFullyConnected reports whether XNNPACK defines convolution n as a fully connected
// layer (xnn_define_convolution_2d: one group, a 1×1 kernel, unit strides, no padding, and more
// than one input or output channel), whatever its datatypes.
func definedAsFullyConnected(n *xnngraph.Node) bool {
	cp := n.Conv
	return n.Op == schema.XNodeUnionXNNConv2d && cp != nil && cp.Groups == 1 && cp.KernelH == 1 && cp.KernelW == 1 &&
		cp.StrideH == 1 && cp.StrideW == 1 && cp.PadTop|cp.PadRight|cp.PadBottom|cp.PadLeft == 0 &&
		uint64(cp.GroupInputChannels)+uint64(cp.GroupOutputChannels) > 2
}
