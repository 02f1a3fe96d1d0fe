package xnnpack

import (
	"sync/atomic"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// The convolution family: convolution (fp32: an im2col times the filter packed at init),
// depthwise convolution (fp32: an indirection table on gemm's depthwise kernels) and transposed
// convolution, each also quantized in XNNPACK's integer arithmetic. Convolution and depthwise
// convolution apply their output range and a fused activation in their stores.

func init() {
	registerNode(schema.XNodeUnionXNNConv2d, nodeKernel{run: conv2d, ownRange: true, takesActivation: true,
		pack: func(n *xnngraph.Node, w *tensor) []*gemm.PackedB {
			cp := n.Conv
			if want := int(cp.Groups) * int(cp.GroupOutputChannels) * int(cp.KernelH) * int(cp.KernelW) * int(cp.GroupInputChannels); len(w.data) != want || want == 0 {
				return nil
			}
			return packConv(w.data, cp)
		},
		quant: func(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
			q, err := p.quantLinear(k, n, 0) // [out, kh, kw, in]
			if err != nil {
				return nil, err
			}
			if cp := n.Conv; cp != nil {
				G, GIC, GOC, KH, KW := int(cp.Groups), int(cp.GroupInputChannels), int(cp.GroupOutputChannels), int(cp.KernelH), int(cp.KernelW)
				if isProduct(q.oc, G, GOC) && isProduct(len(q.w), q.oc, KH, KW, GIC) { // (else the kernel reports the mismatch)
					q.wt = convFilter(q.w, G, KH, KW, GIC, GOC)
				}
			}
			return q.conv, nil
		}})
	registerNode(schema.XNodeUnionXNNDepthwiseConv2d, nodeKernel{run: depthwiseConv2d, ownRange: true, takesActivation: true,
		quant: func(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
			q, err := p.quantLinear(k, n, 3) // [1, kh, kw, channels·multiplier]
			if err != nil {
				return nil, err
			}
			return q.depthwise, nil
		}})
	registerNode(schema.XNodeUnionXNNConvTranspose2d, nodeKernel{run: convTranspose2d,
		quant: func(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
			q, err := p.quantLinear(k, n, 0) // [out, kh, kw, in]
			if err != nil {
				return nil, err
			}
			return q.convTranspose, nil
		}})
}

func convBias(p *plan, n *xnngraph.Node, oc int) ([]float32, error) {
	if n.Inputs[2] == xnngraph.InvalidID {
		return nil, nil
	}
	b, err := p.in(n.Inputs[2])
	if err != nil {
		return nil, err
	}
	if b.numel() != oc {
		return nil, errorf("bias of %d values for %d output channels", b.numel(), oc)
	}
	return b.data, nil
}

// packConv packs a conv filter [groups*gout, kh, kw, gin] as one [kh*kw*gin, gout] matrix per
// group, for the packed GEMM.
func packConv(w []float32, cp *xnngraph.ConvParams) []*gemm.PackedB {
	G, GIC, GOC := int(cp.Groups), int(cp.GroupInputChannels), int(cp.GroupOutputChannels)
	K := int(cp.KernelH) * int(cp.KernelW) * GIC
	out := make([]*gemm.PackedB, G)
	m := make([]float32, K*GOC)
	for g := 0; g < G; g++ {
		for o := 0; o < GOC; o++ {
			for k, v := range w[(g*GOC+o)*K:][:K] {
				m[k*GOC+o] = v
			}
		}
		out[g], _ = gemm.PackB(m, K, GOC, GOC) // sizes are the filter's own
	}
	return out
}

// convOp is a convolution's checked operands and geometry.
type convOp struct {
	x, w                                *tensor
	bias                                []float32
	N, H, W, C, G, GIC, GOC, KH, KW, OC int
	sh, sw, dh, dw, pt, pl              int
}

// convOperands checks a (transposed) convolution's input [N, H, W, groups*gin] and filter
// [groups*gout, kh, kw, gin] against its parameters.
func convOperands(p *plan, n *xnngraph.Node, what string) (*convOp, error) {
	cp := n.Conv
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return nil, err
	}
	w, err := p.in(n.Inputs[1])
	if err != nil {
		return nil, err
	}
	// One convOp per node, reused across calls: the parallel tasks capture it, so a fresh one
	// would be a heap allocation per node per Execute.
	c := p.convOps[n]
	if c == nil {
		c = new(convOp)
		if p.convOps == nil {
			p.convOps = map[*xnngraph.Node]*convOp{}
		}
		p.convOps[n] = c
	}
	*c = convOp{x: x, w: w}
	if len(x.dims) != 4 { // (nhwc's message, built only on failure: a concatenation allocates)
		return nil, errorf("%s input must be 4-d NHWC, got %v", what, x.dims)
	}
	if c.N, c.H, c.W, c.C, err = nhwc(x, what); err != nil {
		return nil, err
	}
	c.G, c.GIC, c.GOC = int(cp.Groups), int(cp.GroupInputChannels), int(cp.GroupOutputChannels)
	c.KH, c.KW = int(cp.KernelH), int(cp.KernelW)
	c.OC = c.G * c.GOC
	if c.G < 1 || c.C != c.G*c.GIC || !equalDims(w.dims, []int{c.OC, c.KH, c.KW, c.GIC}) {
		return nil, errorf("%s input %v and filter %v do not match groups %d x (%d in, %d out), kernel %dx%d", what, x.dims, w.dims, c.G, c.GIC, c.GOC, c.KH, c.KW)
	}
	if c.bias, err = convBias(p, n, c.OC); err != nil {
		return nil, err
	}
	c.sh, c.sw, c.dh, c.dw = int(cp.StrideH), int(cp.StrideW), max(int(cp.DilationH), 1), max(int(cp.DilationW), 1)
	c.pt, c.pl = int(cp.PadTop), int(cp.PadLeft)
	return c, nil
}

// conv2d: NHWC input, filter [groups*group_out, kh, kw, group_in]: an im2col of one output row at
// a time times the packed filter.
func conv2d(p *plan, n *xnngraph.Node) error {
	c, err := convOperands(p, n, "conv")
	if err != nil {
		return err
	}
	x, w, bias, cp := c.x, c.w, c.bias, n.Conv
	N, H, W, C, G, GIC, GOC, KH, KW, OC := c.N, c.H, c.W, c.C, c.G, c.GIC, c.GOC, c.KH, c.KW, c.OC
	sh, sw, dh, dw, pt, pl := c.sh, c.sw, c.dh, c.dw, c.pt, c.pl
	OH, OW := outSize(H, pt, int(cp.PadBottom), KH, sh, dh), outSize(W, pl, int(cp.PadRight), KW, sw, dw)
	y := p.out(n.Outputs[0], []int{N, OH, OW, OC})
	packed := p.packedFilter(n, w.data)
	K := KH * KW * GIC
	// Bias and the node's output range are fused into the GEMM's store.
	groupBias := func(g int) []float32 {
		if bias == nil {
			return nil
		}
		return bias[g*GOC : (g+1)*GOC]
	}
	if G == 1 && KH == 1 && KW == 1 && sh == 1 && sw == 1 && pt == 0 && pl == 0 && OH == H && OW == W {
		// A 1x1 convolution is one GEMM over NHWC pixels.
		p.gemmBias(packed[0], N*H*W, x.data, C, bias, y.data, OC, n.OutputMin, n.OutputMax, p.act(n))
		return nil
	}
	lo, hi := n.OutputMin, n.OutputMax
	if G == 1 && N*OH*OW*K <= wholeIm2colMax && K*OC >= wholeIm2colMinB {
		// Small outputs (deep layers: 14x14, 7x7) become one GEMM over every output pixel, so the
		// weights (MBs at K = 9·512) are read once per layer, not once per output row.
		col := p.scratch(N * OH * OW * K)
		p.parallel(N*OH, 1, 4*N*OH*OW*K, func(r0, r1 int) {
			for r := r0; r < r1; r++ {
				im2colRow(col[r*OW*K:(r+1)*OW*K], x.data, r/OH, r%OH, 0, c, OW)
			}
		})
		p.gemmBias(packed[0], N*OH*OW, col, K, bias, y.data, OC, lo, hi, p.act(n))
		return nil
	}
	// Otherwise blocks of output rows, each patch matrix about an L2's share, per task.
	blockRows := max(1, im2colBlock/max(OW*K, 1))
	p.parallel(N*OH, blockRows, N*OH*OW*K*OC, func(r0, r1 int) {
		buf := p.colPool.Get().(*[]float32)
		defer p.colPool.Put(buf)
		if need := min(blockRows, r1-r0) * OW * K; cap(*buf) < need {
			*buf = make([]float32, need)
		}
		col := *buf
		for b0 := r0; b0 < r1; b0 += blockRows {
			b1 := min(b0+blockRows, r1)
			for g := 0; g < G; g++ {
				for r := b0; r < b1; r++ {
					im2colRow(col[(r-b0)*OW*K:(r-b0+1)*OW*K], x.data, r/OH, r%OH, g, c, OW)
				}
				// Output rows r are contiguous in y across images too: pixel (r, ow) is at r·OW+ow.
				packed[g].GemmBias((b1-b0)*OW, col, K, groupBias(g), y.data[b0*OW*OC+g*GOC:], OC, lo, hi)
			}
			if act := p.act(n); act != nil {
				act(y.data[b0*OW*OC : b1*OW*OC])
			}
		}
	})
	return nil
}

// wholeIm2colMax (floats: 4 MiB) is the largest patch matrix built whole for one GEMM, and only
// for weights of at least wholeIm2colMinB floats (256 KiB), whose re-reads it saves; other
// convolutions (a first layer over 3 channels) build im2colBlock-sized blocks (128 KiB) that are
// multiplied while still in cache.
const (
	wholeIm2colMax  = 1 << 20
	wholeIm2colMinB = 64 << 10
	im2colBlock     = 32 << 10
)

// im2colRow writes output row oh's patches of group g as OW rows of KH·KW·GIC values (zeros in the
// padding). With dilation 1 and one group a kernel row's taps are adjacent input pixels, so for
// the output pixels whose window lies inside the input each kernel row is one run of KW·C values:
// one strided copy per kernel row covers them all. Border pixels go tap by tap.
func im2colRow(col, x []float32, b, oh, g int, c *convOp, OW int) {
	H, W, C, GIC, KH, KW, sw, pl := c.H, c.W, c.C, c.GIC, c.KH, c.KW, c.sw, c.pl
	K := KH * KW * GIC
	run := KW * GIC
	owLo, owHi := 0, 0 // output pixels whose kernel rows are whole runs of the input
	if c.dw == 1 && c.G == 1 && W-KW+pl >= 0 {
		owLo = (pl + sw - 1) / sw
		owHi = min(OW, (W-KW+pl)/sw+1)
		owLo = min(owLo, owHi)
	}
	for kh := 0; kh < KH; kh++ {
		ih := oh*c.sh - c.pt + kh*c.dh
		if ih < 0 || ih >= H {
			for ow := 0; ow < OW; ow++ {
				clear(col[ow*K+kh*run : ow*K+kh*run+run])
			}
			continue
		}
		base := ((b*H + ih) * W) * C
		lo, hi := owLo, owHi
		if hi > lo && !gemm.StridedCopy(col[lo*K+kh*run:], K, x[base+(lo*sw-pl)*C:], sw*C, hi-lo, run) {
			lo, hi = 0, 0 // cannot happen for checked shapes; the tap loop below then does all
		}
		for ow := 0; ow < OW; ow++ {
			if ow == lo && hi > lo {
				ow = hi - 1
				continue
			}
			drow := col[ow*K+kh*run : ow*K+kh*run+run]
			iw0 := ow*sw - pl
			for kw := 0; kw < KW; kw++ {
				iw := iw0 + kw*c.dw
				d := drow[kw*GIC : (kw+1)*GIC]
				if iw < 0 || iw >= W {
					clear(d)
					continue
				}
				copySmall(d, x[base+iw*C+g*GIC:])
			}
		}
	}
}

// copySmall copies len(d) values; the run lengths of a first layer over 3 channels (a pixel, a 3-
// or 7-wide kernel row) are fixed-size array copies, other short runs element by element, both
// cheaper than copy's call.
func copySmall(d, s []float32) {
	switch len(d) {
	case 3:
		*(*[3]float32)(d) = [3]float32(s)
	case 9:
		*(*[9]float32)(d) = [9]float32(s)
	case 21:
		*(*[21]float32)(d) = [21]float32(s)
	default:
		if len(d) >= 16 {
			copy(d, s)
			return
		}
		s = s[:len(d)]
		for i := range d {
			d[i] = s[i]
		}
	}
}

// depthwiseConv2d: NHWC input, filter [1, kh, kw, channels*multiplier].
func depthwiseConv2d(p *plan, n *xnngraph.Node) error {
	cp := n.Conv
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	w, err := p.in(n.Inputs[1])
	if err != nil {
		return err
	}
	N, H, W, C, err := nhwc(x, "depthwise input")
	if err != nil {
		return err
	}
	G, M := int(cp.Groups), int(cp.GroupOutputChannels)
	KH, KW := int(cp.KernelH), int(cp.KernelW)
	OC := G * M
	if C != G || !equalDims(w.dims, []int{1, KH, KW, OC}) {
		return errorf("depthwise input %v and filter %v do not match %d channels x %d, kernel %dx%d", x.dims, w.dims, G, M, KH, KW)
	}
	bias, err := convBias(p, n, OC)
	if err != nil {
		return err
	}
	sh, sw, dh, dw := int(cp.StrideH), int(cp.StrideW), max(int(cp.DilationH), 1), max(int(cp.DilationW), 1)
	pt, pl := int(cp.PadTop), int(cp.PadLeft)
	OH, OW := outSize(H, pt, int(cp.PadBottom), KH, sh, dh), outSize(W, pl, int(cp.PadRight), KW, sw, dw)
	y := p.out(n.Outputs[0], []int{N, OH, OW, OC})
	if bias == nil {
		bias = make([]float32, OC)
	}
	lo, hi := n.OutputMin, n.OutputMax // fused: depthwise applies its own output range
	if M != 1 {
		// A channel multiplier: output channel o reads input channel o/M. Rare; plain loops.
		p.parallel(N*OH, 1, N*OH*OW*OC*KH*KW, func(rlo, rhi int) {
			for r := rlo; r < rhi; r++ {
				b, oh := r/OH, r%OH
				for ow := 0; ow < OW; ow++ {
					acc := y.data[((b*OH+oh)*OW+ow)*OC:][:OC]
					copy(acc, bias)
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
							px := x.data[((b*H+ih)*W+iw)*C:][:C]
							wr := w.data[(kh*KW+kw)*OC:][:OC]
							for o := range acc {
								acc[o] += px[o/M] * wr[o]
							}
						}
					}
					gemm.Clamp(acc, lo, hi)
				}
			}
		})
		return nil
	}
	// One output channel per input channel: every tap of an output pixel is an input pixel (or
	// zeros at the border), read through an indirection table built once per input shape.
	key := dwKey{N, H, W, C, len(x.data)}
	tab := p.dwTaps[n]
	if tab == nil || tab.key != key {
		offs := make([]int32, N*OH*OW*KH*KW)
		i := 0
		for b := 0; b < N; b++ {
			for oh := 0; oh < OH; oh++ {
				for ow := 0; ow < OW; ow++ {
					for kh := 0; kh < KH; kh++ {
						ih := oh*sh - pt + kh*dh
						for kw := 0; kw < KW; kw++ {
							iw := ow*sw - pl + kw*dw
							offs[i] = -1
							if ih >= 0 && ih < H && iw >= 0 && iw < W {
								offs[i] = int32(((b*H+ih)*W + iw) * C)
							}
							i++
						}
					}
				}
			}
		}
		t, err := gemm.NewDWTaps(offs, N*OH*OW, KH*KW, C, len(x.data))
		if err != nil {
			return errorf("depthwise input %v: %v", x.dims, err)
		}
		if dh == 1 && dw == 1 {
			// Interior windows can then skip the table (gemm's register-weights kernels).
			t.SetGeometry(gemm.DWGeometry{N: N, H: H, W: W, C: C, KH: KH, KW: KW, SH: sh, SW: sw, PT: pt, PL: pl, OH: OH, OW: OW})
		}
		tab = &dwTable{key: key, taps: t, zeros: make([]float32, C)}
		if p.dwTaps == nil {
			p.dwTaps = map[*xnngraph.Node]*dwTable{}
		}
		p.dwTaps[n] = tab
	}
	var failed atomic.Bool
	act := p.act(n)
	// Chunks of whole output rows keep each task's input rows together in cache.
	p.parallel(N*OH*OW, max(OW, 1), N*OH*OW*OC*KH*KW, func(p0, p1 int) {
		if err := tab.taps.Depthwise(y.data[p0*OC:p1*OC], x.data, p0, p1, w.data, OC, bias, tab.zeros, lo, hi); err != nil {
			failed.Store(true)
		}
		if act != nil {
			act(y.data[p0*OC : p1*OC])
		}
	})
	if failed.Load() {
		return errorf("depthwise operands of %v disagree with the filter %v", x.dims, w.dims)
	}
	return nil
}

// dwKey is the input geometry a depthwise table was built for.
type dwKey struct{ n, h, w, c, len int }

// dwTable is a depthwise node's cached indirection table and its padding pixel.
type dwTable struct {
	key   dwKey
	taps  *gemm.DWTaps
	zeros []float32
}

// convTranspose2d: NHWC input, filter [groups*group_out, kh, kw, group_in].
func convTranspose2d(p *plan, n *xnngraph.Node) error {
	c, err := convOperands(p, n, "deconvolution")
	if err != nil {
		return err
	}
	x, w, bias, cp := c.x, c.w, c.bias, n.Conv
	N, H, W, C, G, GIC, GOC, KH, KW, OC := c.N, c.H, c.W, c.C, c.G, c.GIC, c.GOC, c.KH, c.KW, c.OC
	sh, sw, dh, dw, pt, pl := c.sh, c.sw, c.dh, c.dw, c.pt, c.pl
	OH, OW, err := deconvOutput(x.dims, H, W, KH, KW, sh, sw, dh, dw, pt, pl, cp)
	if err != nil {
		return err
	}
	y := p.out(n.Outputs[0], []int{N, OH, OW, OC})
	for i := 0; i < len(y.data); i += OC {
		if bias != nil {
			copy(y.data[i:i+OC], bias)
		} else {
			clear(y.data[i : i+OC])
		}
	}
	for b := 0; b < N; b++ {
		for ih := 0; ih < H; ih++ {
			for iw := 0; iw < W; iw++ {
				px := x.data[((b*H+ih)*W+iw)*C:][:C]
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
						out := y.data[((b*OH+oh)*OW+ow)*OC:][:OC]
						for g := 0; g < G; g++ {
							xin := px[g*GIC : g*GIC+GIC]
							for o := g * GOC; o < (g+1)*GOC; o++ {
								wr := w.data[((o*KH+kh)*KW+kw)*GIC:][:GIC]
								var s float32
								for i, v := range xin {
									s += v * wr[i]
								}
								out[o] += s
							}
						}
					}
				}
			}
		}
	}
	return nil
}

// deconvOutput is a deconvolution's output height and width. XNNPACK's reshape refuses an empty
// input and an adjustment (output_padding) that is not below the stride (torch also allows one
// below the dilation); an output with no pixels, where the padding crops everything, crashes the
// official runtime: all three are errors here.
func deconvOutput(dims []int, H, W, KH, KW, sh, sw, dh, dw, pt, pl int, cp *xnngraph.ConvParams) (OH, OW int, err error) {
	if H == 0 || W == 0 {
		return 0, 0, errorf("deconvolution input %v has an empty spatial dimension", dims)
	}
	if int(cp.AdjustmentH) >= sh || int(cp.AdjustmentW) >= sw {
		return 0, 0, errorf("deconvolution adjustment %dx%d must be smaller than the stride %dx%d", cp.AdjustmentH, cp.AdjustmentW, sh, sw)
	}
	OH = sh*(H-1) + int(cp.AdjustmentH) + dh*(KH-1) + 1 - pt - int(cp.PadBottom)
	OW = sw*(W-1) + int(cp.AdjustmentW) + dw*(KW-1) + 1 - pl - int(cp.PadRight)
	if OH < 1 || OW < 1 {
		return 0, 0, errorf("deconvolution of %v with padding %d,%d,%d,%d leaves an output of %dx%d", dims, pt, cp.PadRight, cp.PadBottom, pl, OH, OW)
	}
	return OH, OW, nil
}

// packedFilter returns a node's filter packed at init, or packs a non-constant one now.
func (p *plan) packedFilter(n *xnngraph.Node, w []float32) []*gemm.PackedB {
	if pw, ok := p.packed[n]; ok {
		return pw
	}
	return packConv(w, n.Conv)
}

// conv is a grouped NHWC convolution with filter [groups·gout, kh, kw, gin]. Taps in the padding
// are skipped: XNNPACK pads with the input zero point, whose (x - x_zp) term is 0.
func (q *qlinear) conv(p *plan, n *xnngraph.Node) error {
	x, xq, err := inOf[int8](p, n.Inputs[0])
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
	_, yq := outOf[int8](p, n.Outputs[0], []int{N, OH, OW, OC})
	xi := q.centered(xq[:N*H*W*C])
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
				out := yq[((b*OH+oh)*OW+ow)*OC:][:OC]
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
	x, xq, err := inOf[int8](p, n.Inputs[0])
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
	_, yq := outOf[int8](p, n.Outputs[0], []int{N, OH, OW, OC})
	xi := q.centered(xq[:N*H*W*C])
	p.parallel(N*OH, 1, N*OH*OW*OC*KH*KW, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			b, oh := r/OH, r%OH
			for ow := 0; ow < OW; ow++ {
				out := yq[((b*OH+oh)*OW+ow)*OC:][:OC]
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
	x, xq, err := inOf[int8](p, n.Inputs[0])
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
	_, yq := outOf[int8](p, n.Outputs[0], []int{N, OH, OW, OC})
	xi := q.centered(xq[:N*H*W*C])
	acc := make([]int32, len(yq))
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
		yq[i] = q.store(a, i%OC)
	}
	return nil
}
