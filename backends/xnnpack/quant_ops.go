package xnnpack

import (
	"fmt"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
)

// touchesQuant reports whether any operand of n is a quantized value.
func (p *plan) touchesQuant(n *xnngraph.Node) bool {
	for _, group := range [][]uint32{n.Inputs, n.Outputs} {
		for _, id := range group {
			if id != xnngraph.InvalidID && p.quant[p.index[id]] != nil {
				return true
			}
		}
	}
	return false
}

// qof is the quantization of value id (nil for fp32 or an absent operand).
func (p *plan) qof(id uint32) *qinfo {
	if id == xnngraph.InvalidID {
		return nil
	}
	return p.quant[p.index[id]]
}

func isQint8(q *qinfo) bool { return q != nil && q.dtype == schema.XNNDatatypexnn_datatype_qint8 }

// quantStep checks the datatypes of a node that reads or writes quantized values and returns
// its kernel, with every parameter (combined scales, output range in codes) computed now.
// Combinations the static 8-bit flow does not produce are refused by name.
func (p *plan) quantStep(k int, n *xnngraph.Node) (func(p *plan, n *xnngraph.Node) error, error) {
	unsupported := func() error {
		var kinds []string
		for _, id := range append(append([]uint32(nil), n.Inputs...), n.Outputs...) {
			if id == xnngraph.InvalidID {
				continue
			}
			kinds = append(kinds, p.g.Values[p.index[id]].DType.String())
		}
		return fmt.Errorf("%w: node %d (%s) on %v: this quantized combination is not supported", ErrUnsupported, k, n.OpName(), kinds)
	}
	if len(n.Outputs) != 1 || len(n.Inputs) == 0 || n.Inputs[0] == xnngraph.InvalidID {
		return nil, unsupported()
	}
	x, y := p.qof(n.Inputs[0]), p.qof(n.Outputs[0])
	switch n.Op {
	case schema.XNodeUnionXNNConvert:
		switch {
		case x == nil && isQint8(y):
			inv, zp := 1/y.scale, y.zp // the reciprocal in fp32, as XNNPACK's quantize kernels use it
			return func(p *plan, n *xnngraph.Node) error {
				in, err := p.in(n.Inputs[0])
				if err != nil {
					return err
				}
				out := p.out(n.Outputs[0], in.dims)
				for i, v := range in.data[:len(out.data)] {
					out.data[i] = float32(quantize(v, inv, zp))
				}
				return nil
			}, nil
		case isQint8(x) && y == nil:
			scale, zp := x.scale, x.zp
			return func(p *plan, n *xnngraph.Node) error {
				in, err := p.in(n.Inputs[0])
				if err != nil {
					return err
				}
				out := p.out(n.Outputs[0], in.dims)
				for i, v := range in.data[:len(out.data)] {
					out.data[i] = dequantize(int32(v), zp, scale)
				}
				return nil
			}, nil
		}
	case schema.XNodeUnionXNNConv2d, schema.XNodeUnionXNNDepthwiseConv2d, schema.XNodeUnionXNNFullyConnected,
		schema.XNodeUnionXNNConvTranspose2d:
		return p.quantLinear(n, unsupported)
	case schema.XNodeUnionXNNAdd, schema.XNodeUnionXNNSubtract:
		b := p.qof(n.Inputs[1])
		if !isQint8(x) || !isQint8(b) || !isQint8(y) {
			break
		}
		lo, hi := outputRange(n, y)
		qa, err := newQAdd(x, b, y, lo, hi, n.Op == schema.XNodeUnionXNNSubtract)
		if err != nil {
			return nil, fmt.Errorf("node %d (%s): %w", k, n.OpName(), err)
		}
		// The inputs hold codes, so the fp32 broadcasting kernel serves with an integer body.
		return binaryOp(func(a, b float32) float32 { return float32(qa.add(int32(a), int32(b))) }), nil
	case schema.XNodeUnionXNNMultiply:
		b := p.qof(n.Inputs[1])
		if !isQint8(x) || !isQint8(b) || !isQint8(y) {
			break
		}
		// XNNPACK's qint8 product: (a - a_zp)·(b - b_zp) in int32, requantized with the fp32
		// scale (a_scale·b_scale)/y_scale, which it accepts in [2^-16, 2^8).
		scale := x.scale * b.scale / y.scale
		if !(scale >= 0x1p-16 && scale < 0x1p8) {
			return nil, fmt.Errorf("%w: node %d (%s): qint8 product scale ratio %g (XNNPACK supports [2^-16, 2^8))", ErrUnsupported, k, n.OpName(), scale)
		}
		lo, hi := outputRange(n, y)
		azp, bzp, yzp := x.zp, b.zp, y.zp
		return binaryOp(func(a, b float32) float32 {
			return float32(requantize((int32(a)-azp)*(int32(b)-bzp), scale, yzp, lo, hi))
		}), nil
	case schema.XNodeUnionXNNGlobalAvgPooling2d:
		if !isQint8(x) || !isQint8(y) {
			break
		}
		return qmeanHW(x, y, n), nil
	case schema.XNodeUnionXNNStaticTranspose, schema.XNodeUnionXNNStaticReshape, schema.XNodeUnionXNNStaticSlice,
		schema.XNodeUnionXNNCopy, schema.XNodeUnionXNNClamp, schema.XNodeUnionXNNMaxPooling2d,
		schema.XNodeUnionXNNConcatenate2, schema.XNodeUnionXNNConcatenate3, schema.XNodeUnionXNNConcatenate4,
		schema.XNodeUnionXNNConcatenate5:
		// These move or select codes; XNNPACK requires every input's quantization to equal the
		// output's, so the codes carry over unchanged (then the output range, in codes: all a
		// clamp does).
		same := isQint8(y)
		for _, id := range n.Inputs {
			in := p.qof(id)
			same = same && isQint8(in) && in.scale == y.scale && in.zp == y.zp
		}
		if !same {
			break
		}
		run := ops[n.Op]
		lo, hi := outputRange(n, y)
		return func(p *plan, n *xnngraph.Node) error {
			if err := run(p, n); err != nil {
				return err
			}
			if lo > -128 || hi < 127 {
				flo, fhi := float32(lo), float32(hi)
				d := p.val(n.Outputs[0]).data
				for i, v := range d {
					d[i] = min(max(v, flo), fhi)
				}
			}
			return nil
		}, nil
	}
	return nil, unsupported()
}

// quantLinear builds a quantized (transposed, depthwise) convolution or fully connected layer:
// qint8 input and output, a constant qint8 (per tensor) or qcint8 (per output channel) filter,
// an optional constant qint32/qcint32 bias.
func (p *plan) quantLinear(n *xnngraph.Node, unsupported func() error) (func(p *plan, n *xnngraph.Node) error, error) {
	x, y := p.qof(n.Inputs[0]), p.qof(n.Outputs[0])
	if len(n.Inputs) < 3 || n.Inputs[1] == xnngraph.InvalidID || !isQint8(x) || !isQint8(y) {
		return nil, unsupported()
	}
	wi := p.index[n.Inputs[1]]
	w := p.quant[wi]
	if w == nil || !p.isConst[wi] {
		return nil, unsupported()
	}
	wv := &p.g.Values[wi]
	// The output-channel dimension of each filter layout.
	ocDim := 0
	switch {
	case n.Op == schema.XNodeUnionXNNDepthwiseConv2d:
		ocDim = 3 // [1, kh, kw, channels·multiplier]
	case n.Op == schema.XNodeUnionXNNFullyConnected && n.Flags&xnngraph.FlagTransposeWeights != 0:
		ocDim = 1 // [in, out]
	}
	if ocDim >= len(wv.Dims) {
		return nil, fmt.Errorf("%w: %s filter %v has no output-channel dimension %d", xnngraph.ErrInvalidBlob, n.OpName(), wv.Dims, ocDim)
	}
	oc := int(wv.Dims[ocDim])
	switch {
	case w.dtype == schema.XNNDatatypexnn_datatype_qint8 && !w.perChannel():
		if w.zp != 0 {
			return nil, fmt.Errorf("%w: %s filter (value %d) has zero point %d; XNNPACK's qint8 filters are symmetric", ErrUnsupported, n.OpName(), wv.ID, w.zp)
		}
	case w.dtype == schema.XNNDatatypexnn_datatype_qcint8 && w.perChannel():
		if w.chDim != ocDim {
			return nil, fmt.Errorf("%w: %s filter (value %d) is quantized along dim %d, its output channels are dim %d", ErrUnsupported, n.OpName(), wv.ID, w.chDim, ocDim)
		}
	default:
		return nil, unsupported()
	}
	var bias []int32
	if bid := n.Inputs[2]; bid != xnngraph.InvalidID {
		bi := p.index[bid]
		b := p.quant[bi]
		if b == nil || !p.isConst[bi] || (b.dtype != schema.XNNDatatypexnn_datatype_qint32 && b.dtype != schema.XNNDatatypexnn_datatype_qcint32) {
			return nil, unsupported()
		}
		if len(p.vals[bi].ints) != oc {
			return nil, fmt.Errorf("%w: %s bias (value %d) has %d values for %d output channels", xnngraph.ErrInvalidBlob, n.OpName(), bid, len(p.vals[bi].ints), oc)
		}
		bias = p.vals[bi].ints
	} else {
		bias = make([]int32, oc)
	}
	// XNNPACK's requantization scale per output channel, in fp32 and in this order.
	scale := make([]float32, oc)
	for c := range scale {
		scale[c] = x.scale * w.scaleAt(c) / y.scale
		if !(scale[c] < 256) {
			// As XNNPACK, which refuses to create such a layer.
			return nil, fmt.Errorf("%w: %s requantization scale %g of output channel %d (input %g x filter %g / output %g) is not below 256",
				ErrUnsupported, n.OpName(), scale[c], c, x.scale, w.scaleAt(c), y.scale)
		}
	}
	lo, hi := outputRange(n, y)
	q := &qlinear{bias: bias, w: p.vals[wi].ints, scale: scale, xzp: x.zp, yzp: y.zp, lo: lo, hi: hi, oc: oc}
	switch n.Op {
	case schema.XNodeUnionXNNFullyConnected:
		return q.fullyConnected, nil
	case schema.XNodeUnionXNNDepthwiseConv2d:
		return q.depthwise, nil
	case schema.XNodeUnionXNNConvTranspose2d:
		return q.convTranspose, nil
	}
	if cp := n.Conv; cp != nil {
		G, GIC, GOC, KH, KW := int(cp.Groups), int(cp.GroupInputChannels), int(cp.GroupOutputChannels), int(cp.KernelH), int(cp.KernelW)
		if isProduct(oc, G, GOC) && isProduct(len(q.w), oc, KH, KW, GIC) { // (else the kernel reports the mismatch)
			q.wt = convFilter(q.w, G, KH, KW, GIC, GOC)
		}
	}
	return q.conv, nil
}

// isProduct reports whether the factors multiply to total, without overflow: the factors come
// from an untrusted blob, and a wrapped product must not pass a size check.
func isProduct(total int, factors ...int) bool {
	for _, f := range factors {
		if f < 0 {
			return false
		}
		if f == 0 {
			return total == 0
		}
	}
	n := 1
	for _, f := range factors {
		if n > total/f {
			return false // n·f > total, or would overflow
		}
		n *= f
	}
	return n == total
}

// qlinear is a quantized layer's resolved operands.
type qlinear struct {
	bias, w  []int32
	scale    []float32
	xzp, yzp int32
	lo, hi   int32
	oc       int
	xi       []int32 // scratch: the centered input (a plan runs one Execute at a time)
	wt       []int32 // conv: the filter regrouped by convFilter at init
}

// centered returns the input's codes less the input zero point, as int32, in a buffer the layer
// reuses across calls: converting once per element keeps float-to-int conversions out of the
// multiply-add loops, which read each input element many times.
func (q *qlinear) centered(x []float32) []int32 {
	if cap(q.xi) < len(x) {
		q.xi = make([]int32, len(x))
	}
	xi := q.xi[:len(x)]
	for i, v := range x {
		xi[i] = int32(v) - q.xzp
	}
	return xi
}

func (q *qlinear) store(acc int32, c int) float32 {
	return float32(requantize(acc, q.scale[c], q.yzp, q.lo, q.hi))
}

func (q *qlinear) fullyConnected(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	oc := q.oc
	ic := len(q.w) / max(oc, 1)
	if len(x.dims) == 0 || x.dims[len(x.dims)-1] != ic {
		return errorf("input %v does not end in the filter's %d input channels", x.dims, ic)
	}
	transposed := n.Flags&xnngraph.FlagTransposeWeights != 0
	dims := append(append([]int(nil), x.dims[:len(x.dims)-1]...), oc)
	y := p.out(n.Outputs[0], dims)
	rows := y.numel() / max(oc, 1)
	xi := q.centered(x.data[:rows*ic])
	p.parallel(rows, 1, rows*oc*ic, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			xr := xi[r*ic:][:ic]
			for o := 0; o < oc; o++ {
				acc := q.bias[o]
				if transposed {
					for i, v := range xr {
						acc += v * q.w[i*oc+o]
					}
				} else {
					wr := q.w[o*ic:][:ic]
					for i, v := range xr {
						acc += v * wr[i]
					}
				}
				y.data[r*oc+o] = q.store(acc, o)
			}
		}
	})
	return nil
}

// conv is a grouped NHWC convolution with filter [groups·gout, kh, kw, gin]. Taps in the padding
// are skipped: XNNPACK pads with the input zero point, whose (x - x_zp) term is 0.
func (q *qlinear) conv(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	gm, err := q.geometry(x, n, "conv input")
	if err != nil {
		return err
	}
	if len(q.wt) != len(q.w) {
		return errorf("conv filter of %d values was regrouped into %d", len(q.w), len(q.wt))
	}
	cp := n.Conv
	N, H, W, C, G, GIC, GOC, KH, KW, OC := gm.N, gm.H, gm.W, gm.C, gm.G, gm.GIC, gm.GOC, gm.KH, gm.KW, gm.OC
	sh, sw, dh, dw, pt, pl := gm.sh, gm.sw, gm.dh, gm.dw, gm.pt, gm.pl
	OH, OW := outSize(H, pt, int(cp.PadBottom), KH, sh, dh), outSize(W, pl, int(cp.PadRight), KW, sw, dw)
	y := p.out(n.Outputs[0], []int{N, OH, OW, OC})
	xi := q.centered(x.data[:N*H*W*C])
	wt := q.wt
	p.parallel(N*OH, 1, N*OH*OW*OC*KH*KW*GIC, func(r0, r1 int) {
		acc := make([]int32, OC)
		for r := r0; r < r1; r++ {
			b, oh := r/OH, r%OH
			for ow := 0; ow < OW; ow++ {
				copy(acc, q.bias)
				for kh := 0; kh < KH; kh++ {
					ih := oh*sh - pt + kh*dh
					if ih < 0 || ih >= H {
						continue
					}
					for kw := 0; kw < KW; kw++ {
						iw := ow*sw - pl + kw*dw
						if iw < 0 || iw >= W {
							continue
						}
						px := xi[((b*H+ih)*W+iw)*C:][:C]
						for g := 0; g < G; g++ {
							a := acc[g*GOC:][:GOC]
							for i, v := range px[g*GIC : g*GIC+GIC] {
								if v == 0 {
									continue // an input at its zero point (most of a ReLU's output) adds nothing
								}
								for o, w := range wt[(((g*KH+kh)*KW+kw)*GIC+i)*GOC:][:GOC] {
									a[o] += v * w
								}
							}
						}
					}
				}
				out := y.data[((b*OH+oh)*OW+ow)*OC:][:OC]
				for oc, v := range acc {
					out[oc] = q.store(v, oc)
				}
			}
		}
	})
	return nil
}

// convGeometry is a (transposed) convolution's layout, checked against its input and filter.
type convGeometry struct {
	N, H, W, C, G, GIC, GOC, KH, KW, OC int
	sh, sw, dh, dw, pt, pl              int
}

// geometry reads n's convolution parameters for NHWC input x (what names it in errors) and checks
// them against q's filter: the values come from an untrusted blob, so products are checked
// without overflow.
func (q *qlinear) geometry(x *tensor, n *xnngraph.Node, what string) (convGeometry, error) {
	var g convGeometry
	var err error
	if g.N, g.H, g.W, g.C, err = nhwc(x, what); err != nil {
		return g, err
	}
	cp := n.Conv
	g.G, g.GIC, g.GOC = int(cp.Groups), int(cp.GroupInputChannels), int(cp.GroupOutputChannels)
	g.KH, g.KW = int(cp.KernelH), int(cp.KernelW)
	g.OC = g.G * g.GOC
	if g.G < 1 || !isProduct(g.C, g.G, g.GIC) || !isProduct(q.oc, g.G, g.GOC) || !isProduct(len(q.w), q.oc, g.KH, g.KW, g.GIC) {
		return g, errorf("%s %v and %d-value filter do not match groups %d x (%d in, %d out), kernel %dx%d", what, x.dims, len(q.w), g.G, g.GIC, g.GOC, g.KH, g.KW)
	}
	g.sh, g.sw = int(cp.StrideH), int(cp.StrideW)
	g.dh, g.dw = max(int(cp.DilationH), 1), max(int(cp.DilationW), 1)
	g.pt, g.pl = int(cp.PadTop), int(cp.PadLeft)
	return g, nil
}

// convFilter regroups a [groups·gout, kh, kw, gin] filter as [groups, kh, kw, gin, gout], so
// that one input value multiplies a contiguous row of output channels.
func convFilter(w []int32, G, KH, KW, GIC, GOC int) []int32 {
	wt := make([]int32, len(w))
	for g := 0; g < G; g++ {
		for o := 0; o < GOC; o++ {
			for kh := 0; kh < KH; kh++ {
				for kw := 0; kw < KW; kw++ {
					for i := 0; i < GIC; i++ {
						wt[(((g*KH+kh)*KW+kw)*GIC+i)*GOC+o] = w[(((g*GOC+o)*KH+kh)*KW+kw)*GIC+i]
					}
				}
			}
		}
	}
	return wt
}

// depthwise is an NHWC depthwise convolution with filter [1, kh, kw, channels·multiplier]:
// output channel o reads input channel o / multiplier.
func (q *qlinear) depthwise(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	cp := n.Conv
	N, H, W, C, err := nhwc(x, "depthwise input")
	if err != nil {
		return err
	}
	G, M := int(cp.Groups), int(cp.GroupOutputChannels)
	KH, KW := int(cp.KernelH), int(cp.KernelW)
	OC := G * M
	if C != G || !isProduct(q.oc, G, M) || !isProduct(len(q.w), KH, KW, q.oc) {
		return errorf("depthwise input %v and %d-value filter do not match %d channels x %d, kernel %dx%d", x.dims, len(q.w), G, M, KH, KW)
	}
	sh, sw, dh, dw := int(cp.StrideH), int(cp.StrideW), max(int(cp.DilationH), 1), max(int(cp.DilationW), 1)
	pt, pl := int(cp.PadTop), int(cp.PadLeft)
	OH, OW := outSize(H, pt, int(cp.PadBottom), KH, sh, dh), outSize(W, pl, int(cp.PadRight), KW, sw, dw)
	y := p.out(n.Outputs[0], []int{N, OH, OW, OC})
	xi := q.centered(x.data[:N*H*W*C])
	p.parallel(N*OH, 1, N*OH*OW*OC*KH*KW, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			b, oh := r/OH, r%OH
			for ow := 0; ow < OW; ow++ {
				out := y.data[((b*OH+oh)*OW+ow)*OC:][:OC]
				for oc := 0; oc < OC; oc++ {
					acc := q.bias[oc]
					for kh := 0; kh < KH; kh++ {
						ih := oh*sh - pt + kh*dh
						if ih < 0 || ih >= H {
							continue
						}
						for kw := 0; kw < KW; kw++ {
							iw := ow*sw - pl + kw*dw
							if iw < 0 || iw >= W {
								continue
							}
							acc += xi[((b*H+ih)*W+iw)*C+oc/M] * q.w[(kh*KW+kw)*OC+oc]
						}
					}
					out[oc] = q.store(acc, oc)
				}
			}
		}
	})
	return nil
}

// convTranspose is a grouped NHWC transposed convolution with filter [groups·gout, kh, kw, gin]:
// every input pixel scatters (x - x_zp)·w into the int32 accumulators of the outputs it reaches
// (integer sums, so the order does not matter), which are then requantized.
func (q *qlinear) convTranspose(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	gm, err := q.geometry(x, n, "deconvolution input")
	if err != nil {
		return err
	}
	cp := n.Conv
	N, H, W, C, GIC, GOC, KH, KW, OC := gm.N, gm.H, gm.W, gm.C, gm.GIC, gm.GOC, gm.KH, gm.KW, gm.OC
	sh, sw, dh, dw, pt, pl := gm.sh, gm.sw, gm.dh, gm.dw, gm.pt, gm.pl
	OH, OW, err := deconvOutput(x.dims, H, W, KH, KW, sh, sw, dh, dw, pt, pl, cp)
	if err != nil {
		return err
	}
	y := p.out(n.Outputs[0], []int{N, OH, OW, OC})
	xi := q.centered(x.data[:N*H*W*C])
	acc := make([]int32, len(y.data))
	for i := 0; i < len(acc); i += OC {
		copy(acc[i:i+OC], q.bias)
	}
	for b := 0; b < N; b++ {
		for ih := 0; ih < H; ih++ {
			for iw := 0; iw < W; iw++ {
				px := xi[((b*H+ih)*W+iw)*C:][:C]
				for kh := 0; kh < KH; kh++ {
					oh := ih*sh - pt + kh*dh
					if oh < 0 || oh >= OH {
						continue
					}
					for kw := 0; kw < KW; kw++ {
						ow := iw*sw - pl + kw*dw
						if ow < 0 || ow >= OW {
							continue
						}
						out := acc[((b*OH+oh)*OW+ow)*OC:][:OC]
						for o := range out {
							g := o / GOC
							wr := q.w[((o*KH+kh)*KW+kw)*GIC:][:GIC]
							var s int32
							for i, v := range px[g*GIC : g*GIC+GIC] {
								s += v * wr[i]
							}
							out[o] += s
						}
					}
				}
			}
		}
	}
	for i, a := range acc {
		y.data[i] = q.store(a, i%OC)
	}
	return nil
}

// qmeanHW is a qint8 global average pooling over an NHWC input's H and W. XNNPACK runs it as a
// mean reduction: int32 sums of the raw codes, then a conversion to qint8 of
// float(sum)·s + z, rounded to nearest even and saturated, with s = (x_scale/y_scale)·(1/n) and
// z = y_zp - (n·x_zp)·s, all in fp32 (the x_zp term moved into the output zero point). The node's
// output range is a clamp after it, in codes.
func qmeanHW(x, y *qinfo, n *xnngraph.Node) func(p *plan, n *xnngraph.Node) error {
	ratio, xzp, yzp := x.scale/y.scale, float32(x.zp), float32(y.zp)
	lo, hi := outputRange(n, y)
	return func(p *plan, n *xnngraph.Node) error {
		in, out, N, H, W, C, err := globalPoolOperands(p, n)
		if err != nil {
			return err
		}
		cnt := H * W
		s := ratio * (1 / float32(cnt))
		// (The explicit conversions keep each product rounded on its own: Go may otherwise fuse
		// a multiply and an add, and XNNPACK's reference kernel does not.)
		z := yzp - float32(float32(cnt)*xzp*s)
		sums := make([]int32, C)
		for b := 0; b < N; b++ {
			clear(sums)
			for _, px := range chunks(in.data[b*cnt*C:(b+1)*cnt*C], C) {
				for c, v := range px {
					sums[c] += int32(v)
				}
			}
			for c, sum := range sums {
				v := float32(float32(sum)*s) + z
				if v != v {
					v = 0 // XNNPACK converts NaN (an empty window) to 0
				}
				code := int32(min(max(roundEven(v), -128), 127))
				out.data[b*C+c] = float32(min(max(code, lo), hi))
			}
		}
		return nil
	}
}

// chunks splits d into consecutive slices of n values (none when n is 0).
func chunks(d []float32, n int) [][]float32 {
	if n <= 0 {
		return nil
	}
	out := make([][]float32, 0, len(d)/n)
	for i := 0; i+n <= len(d); i += n {
		out = append(out, d[i:i+n])
	}
	return out
}
