package xnnpack

import (
	"slices"
	"sync/atomic"

	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// outSize is a convolution or pooling's output extent.
func outSize(in, padA, padB, kernel, stride, dilation int) int {
	eff := dilation*(kernel-1) + 1
	if stride <= 0 || in+padA+padB < eff {
		return 0
	}
	return (in+padA+padB-eff)/stride + 1
}

// nhwc checks a 4-d NHWC operand.
func nhwc(t *tensor, what string) (n, h, w, c int, err error) {
	if len(t.dims) != 4 {
		return 0, 0, 0, 0, errorf("%s must be 4-d NHWC, got %v", what, t.dims)
	}
	return t.dims[0], t.dims[1], t.dims[2], t.dims[3], nil
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

// pool2d is max or average pooling over NHWC; the average excludes padding (the partitioner
// only delegates average pools whose padding is not counted).
func pool2d(isMax bool) func(p *plan, n *xnngraph.Node) error {
	return func(p *plan, n *xnngraph.Node) error {
		pp := n.Pool
		x, err := p.in(n.Inputs[0])
		if err != nil {
			return err
		}
		N, H, W, C, err := nhwc(x, "pooling input")
		if err != nil {
			return err
		}
		PH, PW := int(pp.PoolH), int(pp.PoolW)
		sh, sw := max(int(pp.StrideH), 1), max(int(pp.StrideW), 1)
		dh, dw := max(int(pp.DilationH), 1), max(int(pp.DilationW), 1)
		pt, pl := int(pp.PadTop), int(pp.PadLeft)
		OH, OW := outSize(H, pt, int(pp.PadBottom), PH, sh, dh), outSize(W, pl, int(pp.PadRight), PW, sw, dw)
		y := p.out(n.Outputs[0], []int{N, OH, OW, C})
		lo, hi := n.OutputMin, n.OutputMax
		if isMax {
			if len(y.data) > 0 && (H < 1 || W < 1 || PH < 1 || PW < 1) {
				return errorf("max pooling %dx%d of a %v input", PH, PW, x.dims)
			}
			p.parallel(N*OH, 1, 4*N*OH*OW*C*PH*PW, func(r0, r1 int) {
				for r := r0; r < r1; r++ {
					maxPoolRow(y.data, x.data, r/OH, r%OH, H, W, C, PH, PW, sh, sw, dh, dw, pt, pl, OH, OW, lo, hi)
				}
			})
			return nil
		}
		p.parallel(N*OH, 1, 4*N*OH*OW*C*PH*PW, func(r0, r1 int) {
			for r := r0; r < r1; r++ {
				b, oh := r/OH, r%OH
				for ow := 0; ow < OW; ow++ {
					out := y.data[((b*OH+oh)*OW+ow)*C:][:C]
					count := avgPoolSum(out, x.data, b, oh, ow, H, W, C, PH, PW, sh, sw, dh, dw, pt, pl)
					inv := float32(0)
					if count > 0 {
						inv = 1 / float32(count)
					}
					for c, v := range out {
						// XNNPACK's average pooling clamps as max(v, min) then min(v, max), the
						// value first: x86 MAXPS returns its second source on NaN, so a NaN
						// average becomes the lower bound (-Inf without a range), where PyTorch
						// and the portable kernel keep NaN.
						v *= inv
						if !(v > lo) {
							v = lo
						}
						if !(v < hi) {
							v = hi
						}
						out[c] = v
					}
				}
			}
		})
		return nil
	}
}

// maxPoolRow computes output row oh of image b as XNNPACK's max pooling does, so NaN and
// infinities come out as the official runtime's: the window's taps in its indirection order
// (kernel column by column, rows inside), taps in the padding moved into the input
// (poolTapCoord), folded nine at a time by gemm.MaxPool9.
func maxPoolRow(y, x []float32, b, oh, H, W, C, PH, PW, sh, sw, dh, dw, pt, pl, OH, OW int, lo, hi float32) {
	var ihBuf, iwBuf [16]int
	ihs, iws := ihBuf[:0], iwBuf[:0]
	if PH > len(ihBuf) {
		ihs = make([]int, 0, PH)
	}
	if PW > len(iwBuf) {
		iws = make([]int, 0, PW)
	}
	for kh := 0; kh < PH; kh++ {
		ihs = append(ihs, poolTapCoord(oh*sh+kh*dh, pt, H, dh))
	}
	iws = iws[:PW]
	K := PH * PW
	for ow := 0; ow < OW; ow++ {
		for kw := 0; kw < PW; kw++ {
			iws[kw] = poolTapCoord(ow*sw+kw*dw, pl, W, dw)
		}
		out := y[((b*OH+oh)*OW+ow)*C:][:C]
		for start := 0; start < K; start += 9 {
			var taps [9][]float32
			for j := range taps {
				if start+j >= K {
					taps[j] = taps[0] // a short last pass repeats its first tap, as XNNPACK's
					continue
				}
				kw, kh := (start+j)/PH, (start+j)%PH
				taps[j] = x[((b*H+ihs[kh])*W+iws[kw])*C:][:C]
			}
			gemm.MaxPool9(out, &taps, start == 0, lo, hi)
		}
	}
}

// poolTapCoord is the input row (or column) XNNPACK's max-pooling indirection reads for the tap
// at padded coordinate v = out·stride + k·dilation: a tap in the padding is moved into the input
// in steps of the dilation (to the first or last row without dilation), never skipped, so it
// repeats an input value; with NaN that decides which NaNs the fold keeps.
func poolTapCoord(v, pad, size, dil int) int {
	for v < pad {
		v += dil
	}
	for v >= size+pad && v > 0 {
		v = max(v-dil, 0)
	}
	return min(max(v-pad, 0), size-1)
}

// avgPoolSum writes the sum of one output pixel's pooling taps into out, in XNNPACK's order so
// the fp32 result is bit-identical: taps column by column (kernel x outer, y inner), nine at a
// time, each nine summed as ((t2+t3)+(t4+t5)) + (((t0+t1)+t8)+(t6+t7)) and added to the running
// total; taps in the padding, and past the last tap, are zeros. It returns the in-bounds taps.
func avgPoolSum(out, x []float32, b, oh, ow, H, W, C, PH, PW, sh, sw, dh, dw, pt, pl int) int {
	clear(out)
	var taps [9][]float32
	count, k := 0, 0
	flush := func(n int) {
		for c := range out {
			var t [9]float32
			for j := 0; j < n; j++ {
				if taps[j] != nil {
					t[j] = taps[j][c]
				}
			}
			out[c] += ((t[2] + t[3]) + (t[4] + t[5])) + (((t[0] + t[1]) + t[8]) + (t[6] + t[7]))
		}
	}
	total := PH * PW
	for kw := 0; kw < PW; kw++ {
		iw := ow*sw - pl + kw*dw
		for kh := 0; kh < PH; kh++ {
			ih := oh*sh - pt + kh*dh
			taps[k] = nil
			if ih >= 0 && ih < H && iw >= 0 && iw < W {
				taps[k] = x[((b*H+ih)*W+iw)*C:][:C]
				count++
			}
			k++
			total--
			// XNNPACK's first passes take nine taps while more than nine remain; the last pass
			// takes the rest.
			if k == 9 && total > 0 || total == 0 {
				flush(k)
				k = 0
			}
		}
	}
	return count
}

// globalPoolOperands reads a global pooling node's NHWC input and makes its output: [N, 1, 1, C]
// with keep-dims, else [N, C].
func globalPoolOperands(p *plan, n *xnngraph.Node) (x, y *tensor, N, H, W, C int, err error) {
	if x, err = p.in(n.Inputs[0]); err != nil {
		return
	}
	if N, H, W, C, err = nhwc(x, "global pooling input"); err != nil {
		return
	}
	dims := []int{N, C}
	if n.Flags&xnngraph.FlagKeepDims != 0 {
		dims = []int{N, 1, 1, C}
	}
	return x, p.out(n.Outputs[0], dims), N, H, W, C, nil
}

// globalAvgPool averages NHWC over H and W.
func globalAvgPool(p *plan, n *xnngraph.Node) error {
	x, y, N, H, W, C, err := globalPoolOperands(p, n)
	if err != nil {
		return err
	}
	// fp32 column sums over the pixels in vector steps (XNNPACK accumulates in fp32 too), the
	// channels split across threads in blocks.
	inv := 1 / float32(max(H*W, 1))
	const cblock = 64
	p.parallel(N*((C+cblock-1)/cblock), 1, 4*N*H*W*C, func(t0, t1 int) {
		for t := t0; t < t1; t++ {
			nb := (C + cblock - 1) / cblock
			b, c0 := t/nb, t%nb*cblock
			c1 := min(c0+cblock, C)
			acc := y.data[b*C+c0 : b*C+c1]
			clear(acc)
			gemm.SumRows(acc, x.data[b*H*W*C+c0:], H*W, C) // sizes are the input's own
			for c := range acc {
				acc[c] *= inv
			}
		}
	})
	return nil
}

// transpose permutes dimensions: out.dims[i] = in.dims[perm[i]].
func transpose(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	r := len(x.dims)
	if len(n.Perm) != r {
		return errorf("perm %v for a rank-%d input", n.Perm, r)
	}
	seen := make([]bool, r)
	dims := make([]int, r)
	for i, d := range n.Perm {
		if int(d) >= r || seen[d] {
			return errorf("perm %v is not a permutation of 0..%d", n.Perm, r-1)
		}
		seen[d] = true
		dims[i] = x.dims[d]
	}
	y := p.out(n.Outputs[0], dims)
	inStride := rowMajorStrides(x.dims)
	s := make([]int, r)
	for i, d := range n.Perm {
		s[i] = inStride[d]
	}
	if r >= 2 && s[r-1] != 1 {
		// The innermost output dimension strides through the input (NCHW -> NHWC moves channels
		// innermost): tile so reads and writes both stay within cached lines.
		p.transposeTiled(y.data, x.data, s, dims)
		return nil
	}
	gather(y.data, x.data, 0, s, dims)
	return nil
}

// transposeTiled is gather for a permutation whose last output dimension is not contiguous in
// the input: it finds the output dimension that is (stride 1) and walks 2-d tiles of it against
// the last output dimension, reading runs of the input and writing runs of the output, the other
// dimensions' index combinations split across threads.
func (p *plan) transposeTiled(dst, src []float32, strides, dims []int) {
	r := len(dims)
	inner := -1 // output dimension contiguous in the input
	for d := 0; d < r-1; d++ {
		if strides[d] == 1 && dims[d] > 1 {
			inner = d
		}
	}
	if inner < 0 {
		gather(dst, src, 0, strides, dims)
		return
	}
	ostr := rowMajorStrides(dims)
	var outer []int // every output dimension except the tile's two axes
	nouter := 1
	for d := 0; d < r-1; d++ {
		if d != inner {
			outer = append(outer, d)
			nouter *= dims[d]
		}
	}
	const tile = 64
	ni, nl := dims[inner], dims[r-1]
	sl, oi := strides[r-1], ostr[inner]
	p.parallel(nouter, 1, 4*len(dst), func(o0, o1 int) {
		for o := o0; o < o1; o++ {
			ib, ob, rest := 0, 0, o
			for k := len(outer) - 1; k >= 0; k-- {
				d := outer[k]
				x := rest % dims[d]
				rest /= dims[d]
				ib += x * strides[d]
				ob += x * ostr[d]
			}
			if nl == 3 && oi == 3 {
				// An RGB image's planes into pixels (NCHW -> NHWC): whole output pixels from
				// three input runs, about 4x the tiled loop.
				interleave3(dst[ob:ob+3*ni], src[ib:ib+ni], src[ib+sl:ib+sl+ni], src[ib+2*sl:ib+2*sl+ni])
				continue
			}
			for i0 := 0; i0 < ni; i0 += tile {
				i1 := min(i0+tile, ni)
				for l := 0; l < nl; l++ {
					run := src[ib+l*sl+i0 : ib+l*sl+i1] // stride 1 along inner
					out := dst[ob+i0*oi+l:]
					for k, v := range run {
						out[k*oi] = v
					}
				}
			}
		}
	})
}

// interleave3 writes dst[3i+c] = plane c's [i] for three planes of len(p0) values.
func interleave3(dst, p0, p1, p2 []float32) {
	n := len(p0)
	p1, p2, dst = p1[:n], p2[:n], dst[:3*n]
	for i := 0; i < n; i++ {
		o := dst[3*i : 3*i+3 : 3*i+3]
		o[0], o[1], o[2] = p0[i], p1[i], p2[i]
	}
}

// gather fills dst (row-major over dims) with src[base + Σ idx[d]·strides[d]]: a transpose,
// slice or broadcast read.
func gather(dst, src []float32, base int, strides, dims []int) {
	idx := make([]int, len(dims))
	off := base
	for i := range dst {
		dst[i] = src[off]
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			off += strides[d]
			if idx[d] < dims[d] {
				break
			}
			off -= idx[d] * strides[d]
			idx[d] = 0
		}
	}
}

// reshape copies into new dims; one 0 entry is inferred from the element count.
func reshape(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	dims := make([]int, len(n.NewShape))
	known, infer := 1, -1
	for i, d := range n.NewShape {
		dims[i] = int(d)
		if d == 0 {
			if infer >= 0 {
				return errorf("new shape %v has more than one dimension to infer", n.NewShape)
			}
			infer = i
			continue
		}
		known *= int(d)
	}
	if infer >= 0 && known > 0 {
		dims[infer] = x.numel() / known
	}
	total := 1
	for _, d := range dims {
		total *= d
	}
	if total != x.numel() {
		return errorf("cannot reshape %v (%d elements) to %v", x.dims, x.numel(), n.NewShape)
	}
	y := p.out(n.Outputs[0], dims)
	copy(y.data, x.data[:total])
	return nil
}

// slice copies the box [offsets, offsets+sizes); a size of 0 runs to the end.
func slice(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	r := len(x.dims)
	if len(n.Offsets) != r || len(n.Sizes) != r {
		return errorf("slice of %d offsets and %d sizes for rank %d", len(n.Offsets), len(n.Sizes), r)
	}
	dims := make([]int, r)
	for i := range dims {
		o, s := int(n.Offsets[i]), int(n.Sizes[i])
		if s == 0 {
			s = x.dims[i] - o
		}
		if o < 0 || s < 0 || o+s > x.dims[i] {
			return errorf("slice offset %d size %d out of dimension %d of %v", o, s, i, x.dims)
		}
		dims[i] = s
	}
	y := p.out(n.Outputs[0], dims)
	stride := rowMajorStrides(x.dims)
	base := 0
	for i := range dims {
		base += int(n.Offsets[i]) * stride[i]
	}
	gather(y.data, x.data, base, stride, dims)
	return nil
}

// constantPad pads each dimension with pre and post paddings of a constant.
func constantPad(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	r := len(x.dims)
	if len(n.PrePadding) != r || len(n.PostPadding) != r {
		return errorf("padding of %d/%d entries for rank %d", len(n.PrePadding), len(n.PostPadding), r)
	}
	dims := make([]int, r)
	for i := range dims {
		dims[i] = x.dims[i] + int(n.PrePadding[i]) + int(n.PostPadding[i])
	}
	y := p.out(n.Outputs[0], dims)
	for i := range y.data {
		y.data[i] = n.PadValue
	}
	ystride := rowMajorStrides(dims)
	idx := make([]int, r)
	for i := 0; i < x.numel(); i++ {
		off := 0
		for d, v := range idx {
			off += (v + int(n.PrePadding[d])) * ystride[d]
		}
		y.data[off] = x.data[i]
		for d := r - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < x.dims[d] {
				break
			}
			idx[d] = 0
		}
	}
	return nil
}

// concat joins the inputs along the node's axis.
func concat(p *plan, n *xnngraph.Node) error {
	var ins []*tensor
	for _, id := range n.Inputs {
		t, err := p.in(id)
		if err != nil {
			return err
		}
		ins = append(ins, t)
	}
	r := len(ins[0].dims)
	ax := int(n.Axis)
	if ax >= r {
		return errorf("concatenation axis %d for rank %d", ax, r)
	}
	dims := slices.Clone(ins[0].dims)
	dims[ax] = 0
	for _, t := range ins {
		if len(t.dims) != r {
			return errorf("concatenating ranks %d and %d", r, len(t.dims))
		}
		for d := range t.dims {
			if d != ax && t.dims[d] != ins[0].dims[d] {
				return errorf("concatenating %v and %v along %d", ins[0].dims, t.dims, ax)
			}
		}
		dims[ax] += t.dims[ax]
	}
	y := p.out(n.Outputs[0], dims)
	outer := 1
	for _, d := range dims[:ax] {
		outer *= d
	}
	inner := 1
	for _, d := range dims[ax+1:] {
		inner *= d
	}
	off := 0
	for o := 0; o < outer; o++ {
		for _, t := range ins {
			k := t.dims[ax] * inner
			copy(y.data[off:off+k], t.data[o*k:o*k+k])
			off += k
		}
	}
	return nil
}

// resizeBilinear resizes NHWC H and W, with half-pixel centres or aligned corners.
func resizeBilinear(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	N, H, W, C, err := nhwc(x, "resize input")
	if err != nil {
		return err
	}
	OH, OW := int(n.NewHeight), int(n.NewWidth)
	y := p.out(n.Outputs[0], []int{N, OH, OW, C})
	align := n.Flags&xnngraph.FlagAlignCorners != 0
	src := func(o, in, out int) float64 {
		if align {
			if out <= 1 {
				return 0
			}
			return float64(o) * float64(in-1) / float64(out-1)
		}
		s := (float64(o)+0.5)*float64(in)/float64(out) - 0.5
		return max(s, 0)
	}
	for b := 0; b < N; b++ {
		for oh := 0; oh < OH; oh++ {
			fy := src(oh, H, OH)
			y0 := min(int(fy), H-1)
			y1, wy := min(y0+1, H-1), fy-float64(y0)
			for ow := 0; ow < OW; ow++ {
				fx := src(ow, W, OW)
				x0 := min(int(fx), W-1)
				x1, wx := min(x0+1, W-1), fx-float64(x0)
				out := y.data[((b*OH+oh)*OW+ow)*C:][:C]
				p00 := x.data[((b*H+y0)*W+x0)*C:]
				p01 := x.data[((b*H+y0)*W+x1)*C:]
				p10 := x.data[((b*H+y1)*W+x0)*C:]
				p11 := x.data[((b*H+y1)*W+x1)*C:]
				for c := range out {
					top := float64(p00[c]) + (float64(p01[c])-float64(p00[c]))*wx
					bot := float64(p10[c]) + (float64(p11[c])-float64(p10[c]))*wx
					out[c] = float32(top + (bot-top)*wy)
				}
			}
		}
	}
	return nil
}

// rowMajorStrides returns the element strides of a contiguous tensor of these dims.
func rowMajorStrides(dims []int) []int {
	s := make([]int, len(dims))
	step := 1
	for i := len(dims) - 1; i >= 0; i-- {
		s[i] = step
		step *= dims[i]
	}
	return s
}
