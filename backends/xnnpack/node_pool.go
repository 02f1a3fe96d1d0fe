package xnnpack

import (
	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// The pooling family: max pooling (fp32 in XNNPACK's tap order, so NaN comes out as the official
// runtime's; quantized on codes), average pooling (fp32) and global average pooling (fp32, and
// quantized as XNNPACK's mean reduction). Argmax pooling is not run.

func init() {
	registerNode(schema.XNodeUnionXNNMaxPooling2d, nodeKernel{run: pool2d(true), quant: quantMove(maxPoolCodes),
		operator: "Max Pooling (NHWC, F32)"})
	registerNode(schema.XNodeUnionXNNAvgPooling2d, nodeKernel{run: pool2d(false), operator: "Average Pooling (NHWC, F32) Average Pooling"})
	registerNode(schema.XNodeUnionXNNGlobalAvgPooling2d, nodeKernel{run: globalAvgPool, operator: "Mean (ND) Reduce2", // XNNPACK's mean over H, W
		quant: func(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
			x, y := p.qof(n.Inputs[0]), p.qof(n.Outputs[0])
			if !isQint8(x) || !isQint8(y) {
				return nil, p.unsupportedQuant(k, n)
			}
			return qmeanHW(x, y, n), nil
		}})
}

// poolGeom is a pooling's NHWC geometry.
type poolGeom struct {
	N, H, W, C, PH, PW, sh, sw, dh, dw, pt, pl, OH, OW int
}

// poolOperands reads a pooling node's NHWC input and sizes its output, elements of type T.
func poolOperands[T elem](p *plan, n *xnngraph.Node) (x *tensor, xd, yd []T, g poolGeom, err error) {
	pp := n.Pool
	if x, xd, err = inOf[T](p, n.Inputs[0]); err != nil {
		return
	}
	if g.N, g.H, g.W, g.C, err = nhwc(x, "pooling input"); err != nil {
		return
	}
	g.PH, g.PW = int(pp.PoolH), int(pp.PoolW)
	g.sh, g.sw = max(int(pp.StrideH), 1), max(int(pp.StrideW), 1)
	g.dh, g.dw = max(int(pp.DilationH), 1), max(int(pp.DilationW), 1)
	g.pt, g.pl = int(pp.PadTop), int(pp.PadLeft)
	g.OH, g.OW = outSize(g.H, g.pt, int(pp.PadBottom), g.PH, g.sh, g.dh), outSize(g.W, g.pl, int(pp.PadRight), g.PW, g.sw, g.dw)
	_, yd = outOf[T](p, n.Outputs[0], []int{g.N, g.OH, g.OW, g.C})
	return
}

// maxPoolable refuses a max pooling with outputs but no input or window to take them from.
func (g *poolGeom) maxPoolable(x *tensor, yd int) error {
	if yd > 0 && (g.H < 1 || g.W < 1 || g.PH < 1 || g.PW < 1) {
		return errorf("max pooling %dx%d of a %v input", g.PH, g.PW, x.dims)
	}
	return nil
}

// pool2d is max or average pooling over NHWC; the average excludes padding (the partitioner
// only delegates average pools whose padding is not counted).
func pool2d(isMax bool) runFunc {
	return func(p *plan, n *xnngraph.Node) error {
		x, xd, yd, g, err := poolOperands[float32](p, n)
		if err != nil {
			return err
		}
		N, H, W, C, PH, PW := g.N, g.H, g.W, g.C, g.PH, g.PW
		sh, sw, dh, dw, pt, pl, OH, OW := g.sh, g.sw, g.dh, g.dw, g.pt, g.pl, g.OH, g.OW
		lo, hi := n.OutputMin, n.OutputMax
		if isMax {
			if err := g.maxPoolable(x, len(yd)); err != nil {
				return err
			}
			p.parallel(N*OH, 1, 4*N*OH*OW*C*PH*PW, func(r0, r1 int) {
				for r := r0; r < r1; r++ {
					maxPoolRow(yd, xd, r/OH, r%OH, H, W, C, PH, PW, sh, sw, dh, dw, pt, pl, OH, OW, lo, hi)
				}
			})
			return nil
		}
		p.parallel(N*OH, 1, 4*N*OH*OW*C*PH*PW, func(r0, r1 int) {
			for r := r0; r < r1; r++ {
				b, oh := r/OH, r%OH
				for ow := 0; ow < OW; ow++ {
					out := yd[((b*OH+oh)*OW+ow)*C:][:C]
					count := avgPoolSum(out, xd, b, oh, ow, H, W, C, PH, PW, sh, sw, dh, dw, pt, pl)
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

// maxPoolCodes is max pooling on qint8 codes: each output the largest of its window's taps,
// the same taps maxPoolRow reads (integers have no NaN, so the order of the comparisons does not
// matter). The output range, in codes, is quantMove's.
func maxPoolCodes(p *plan, n *xnngraph.Node) error {
	x, xd, yd, g, err := poolOperands[int8](p, n)
	if err != nil {
		return err
	}
	if err := g.maxPoolable(x, len(yd)); err != nil || len(yd) == 0 {
		return err
	}
	p.parallel(g.N*g.OH, 1, 4*g.N*g.OH*g.OW*g.C*g.PH*g.PW, func(r0, r1 int) {
		ihs, iws := make([]int, g.PH), make([]int, g.PW)
		for r := r0; r < r1; r++ {
			b, oh := r/g.OH, r%g.OH
			for kh := range ihs {
				ihs[kh] = poolTapCoord(oh*g.sh+kh*g.dh, g.pt, g.H, g.dh)
			}
			for ow := 0; ow < g.OW; ow++ {
				for kw := range iws {
					iws[kw] = poolTapCoord(ow*g.sw+kw*g.dw, g.pl, g.W, g.dw)
				}
				out := yd[((b*g.OH+oh)*g.OW+ow)*g.C:][:g.C]
				copy(out, xd[((b*g.H+ihs[0])*g.W+iws[0])*g.C:])
				for _, iw := range iws {
					for _, ih := range ihs {
						gemm.MaxQ8(out, xd[((b*g.H+ih)*g.W+iw)*g.C:][:g.C])
					}
				}
			}
		}
	})
	return nil
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
// with keep-dims, else [N, C]; elements of type T.
func globalPoolOperands[T elem](p *plan, n *xnngraph.Node) (xd, yd []T, N, H, W, C int, err error) {
	var x *tensor
	if x, xd, err = inOf[T](p, n.Inputs[0]); err != nil {
		return
	}
	if N, H, W, C, err = nhwc(x, "global pooling input"); err != nil {
		return
	}
	dims := []int{N, C}
	if n.Flags&xnngraph.FlagKeepDims != 0 {
		dims = []int{N, 1, 1, C}
	}
	_, yd = outOf[T](p, n.Outputs[0], dims)
	return xd, yd, N, H, W, C, nil
}

// globalAvgPool averages NHWC over H and W.
func globalAvgPool(p *plan, n *xnngraph.Node) error {
	x, y, N, H, W, C, err := globalPoolOperands[float32](p, n)
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
			acc := y[b*C+c0 : b*C+c1]
			clear(acc)
			gemm.SumRows(acc, x[b*H*W*C+c0:], H*W, C) // sizes are the input's own
			for c := range acc {
				acc[c] *= inv
			}
		}
	})
	return nil
}

// qmeanHW is a qint8 global average pooling over an NHWC input's H and W. XNNPACK runs it as a
// mean reduction: int32 sums of the raw codes, then a conversion to qint8 of
// float(sum)·s + z, rounded to nearest even and saturated, with s = (x_scale/y_scale)·(1/n) and
// z = y_zp - (n·x_zp)·s, all in fp32 (the x_zp term moved into the output zero point). The node's
// output range is a clamp after it, in codes.
func qmeanHW(x, y *qinfo, n *xnngraph.Node) runFunc {
	ratio, xzp, yzp := x.scale/y.scale, float32(x.zp), float32(y.zp)
	lo, hi := outputRange(n, y)
	return func(p *plan, n *xnngraph.Node) error {
		in, out, N, H, W, C, err := globalPoolOperands[int8](p, n)
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
			gemm.SumRowsQ8(sums, in[b*cnt*C:(b+1)*cnt*C], cnt, C)
			for c, sum := range sums {
				v := float32(float32(sum)*s) + z
				if v != v {
					v = 0 // XNNPACK converts NaN (an empty window) to 0
				}
				code := int32(min(max(roundEven(v), -128), 127))
				out[b*C+c] = int8(min(max(code, lo), hi))
			}
		}
		return nil
	}
}
