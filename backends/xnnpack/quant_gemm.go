package xnnpack

import (
	"sync/atomic"
	"unsafe"

	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// The statically quantized matrix kernels on internal/gemm's int8 GEMM (AVX-512 VNNI assembly
// where the CPU has it): the filters of convolutions and fully connected layers are packed once
// at init with the bias, the zero-point correction and the requantization scales bound to them
// (gemm.QS8, one per convolution group), and a depthwise convolution without a channel
// multiplier gets its own kernel (gemm.QDW) on a table of tap offsets cached per input shape.
// A 1x1, stride-1, unpadded convolution multiplies the input codes themselves; other
// convolutions build patch matrices of codes, padding taps holding the input zero point
// (whose (x - x_zp) term is 0), as XNNPACK's indirection buffers point at a zero-point row.

// packQS8 packs the layer's filter q.wt, G groups of [K, GOC] matrices, for the int8 GEMM. A
// filter that does not fit leaves q.qs empty, and the kernel reports the mismatch.
func (q *qlinear) packQS8(G, K, GOC int) {
	if G < 1 || !isProduct(len(q.wt), G, K, GOC) || len(q.bias) != G*GOC || len(q.scale) != G*GOC {
		return
	}
	qs := make([]*gemm.QS8, G)
	for g := range qs {
		pk, err := gemm.PackQ8(q.wt[g*K*GOC:(g+1)*K*GOC], K, GOC)
		if err != nil {
			return
		}
		if qs[g], err = pk.NewQS8(q.bias[g*GOC:(g+1)*GOC], q.scale[g*GOC:(g+1)*GOC], q.xzp, q.yzp, q.lo, q.hi); err != nil {
			return
		}
	}
	q.qs = qs
	if G == 1 && q.wdims != nil && len(q.wdims) == 4 && q.wdims[3] == 3 && K == q.wdims[1]*q.wdims[2]*3 {
		// A first layer over 3 channels also gets its filter over 4 (the fourth zeros), for
		// the indirect GEMM on the input widened to 4 codes a pixel (Pad3To4).
		taps := K / 3
		w4 := make([]int32, taps*4*GOC)
		for t := range taps {
			copy(w4[t*4*GOC:t*4*GOC+3*GOC], q.wt[t*3*GOC:(t+1)*3*GOC])
		}
		if pk, err := gemm.PackQ8(w4, taps*4, GOC); err == nil {
			q.qs4, _ = pk.NewQS8(q.bias, q.scale, q.xzp, q.yzp, q.lo, q.hi)
		}
	}
}

// runQS8 runs a packed product over the plan's threads: by rows when there are enough of them,
// else by output-channel panels (a classifier's single row, an LLM's token), so each thread
// reads only its share of the weights.
func (p *plan) runQS8(q *gemm.QS8, m int, a []int8, lda int, c []int8, ldc int) error {
	panels := q.P.Panels()
	work := m*q.P.K*q.P.N + 4*q.P.K*q.P.N
	var failed atomic.Pointer[error]
	if p.threads <= 1 || m >= 2*6*p.threads || panels < 2 {
		p.parallel(m, 6, work, func(r0, r1 int) {
			if err := q.Run(r1-r0, a[r0*lda:], lda, c[r0*ldc:], ldc, 0, panels); err != nil {
				failed.Store(&err)
			}
		})
	} else {
		p.parallel(panels, 1, work, func(j0, j1 int) {
			if err := q.Run(m, a, lda, c, ldc, j0, j1); err != nil {
				failed.Store(&err)
			}
		})
	}
	if e := failed.Load(); e != nil {
		return errorf("%v", *e)
	}
	return nil
}

// scratchQ8 is the plan's integer scratch memory viewed as n int8 codes.
func (p *plan) scratchQ8(n int) []int8 {
	w := scratchOf[int32](p, n/4+1)
	return unsafe.Slice((*int8)(unsafe.Pointer(&w[0])), n)
}

// colMaxQ8 bounds a patch matrix built at once (codes): larger convolutions go in blocks of
// output rows.
const colMaxQ8 = 8 << 20

// conv is the quantized convolution on the packed int8 GEMM.
func (q *qlinear) conv(p *plan, n *xnngraph.Node) error {
	x, xq, err := inOf[int8](p, n.Inputs[0])
	if err != nil {
		return err
	}
	if q.geom, err = convGeometry(n, x, q.wdims, "conv"); err != nil {
		return err
	}
	c := &q.geom
	if len(q.qs) != c.G {
		return errorf("conv filter %v does not fit %d groups of %d x %d", q.wdims, c.G, c.KH*c.KW*c.GIC, c.GOC)
	}
	N, H, W, C, OC, OH, OW := c.N, c.H, c.W, c.C, c.OC, c.OH, c.OW
	_, y := outOf[int8](p, n.Outputs[0], []int{N, OH, OW, OC})
	xq = xq[:N*H*W*C]
	if c.G == 1 && c.KH == 1 && c.KW == 1 && c.sh == 1 && c.sw == 1 && c.pt == 0 && c.pl == 0 && OH == H && OW == W {
		return p.runQS8(q.qs[0], N*H*W, xq, C, y, OC)
	}
	if c.G == 1 && C%4 == 0 {
		return q.convIndirect(p, xq, y, c, q.qs[0])
	}
	if c.G == 1 && C == 3 && q.qs4 != nil {
		x4 := p.scratchQ8(N * H * W * 4)
		gemm.Pad3To4(x4, xq, N*H*W)
		g4 := *c
		g4.C, g4.GIC = 4, 4
		return q.convIndirect(p, x4, y, &g4, q.qs4)
	}
	K := c.KH * c.KW * c.GIC
	rows := N * OH
	block := max(1, colMaxQ8/max(OW*K, 1))
	zp := int8(q.xzp)
	for g := range c.G {
		for r0 := 0; r0 < rows; r0 += block {
			r1 := min(rows, r0+block)
			col := p.scratchQ8((r1 - r0) * OW * K)
			p.parallel(r1-r0, 1, 2*(r1-r0)*OW*K, func(a, b int) {
				for r := a; r < b; r++ {
					im2colQ8(col[r*OW*K:(r+1)*OW*K], xq, (r0+r)/OH, (r0+r)%OH, g, c, zp)
				}
			})
			if err := p.runQS8(q.qs[g], (r1-r0)*OW, col, K, y[r0*OW*OC+g*c.GOC:], OC); err != nil {
				return err
			}
		}
	}
	return nil
}

// im2colQ8 writes output row oh's patches of group g (image b) as OW rows of KH·KW·GIC codes,
// the input zero point in the padding; with one group and no dilation a kernel row inside the
// input is one run of KW·C codes.
func im2colQ8(dst, x []int8, b, oh, g int, c *convGeom, zp int8) {
	H, W, C, GIC, KH, KW, OW := c.H, c.W, c.C, c.GIC, c.KH, c.KW, c.OW
	K, run := KH*KW*GIC, KW*GIC
	whole := c.dw == 1 && c.G == 1
	for ow := range OW {
		d := dst[ow*K : (ow+1)*K]
		iw0 := ow*c.sw - c.pl
		for kh := range KH {
			row := d[kh*run : (kh+1)*run]
			ih := oh*c.sh - c.pt + kh*c.dh
			if ih < 0 || ih >= H {
				fillQ8(row, zp)
				continue
			}
			base := (b*H + ih) * W * C
			if whole && iw0 >= 0 && iw0+KW <= W {
				copy(row, x[base+iw0*C:][:run])
				continue
			}
			for kw := range KW {
				seg := row[kw*GIC : (kw+1)*GIC]
				iw := iw0 + kw*c.dw
				if iw < 0 || iw >= W {
					fillQ8(seg, zp)
					continue
				}
				copy(seg, x[base+iw*C+g*GIC:][:GIC])
			}
		}
	}
}

func fillQ8(d []int8, v int8) {
	if v == 0 {
		clear(d)
		return
	}
	for i := range d {
		d[i] = v
	}
}

// packQDW binds a depthwise layer without a channel multiplier to the int8 depthwise kernel.
func (q *qlinear) packQDW(cp *xnngraph.ConvParams) {
	if cp == nil || cp.GroupOutputChannels != 1 || len(q.wdims) != 4 {
		return
	}
	taps := int(cp.KernelH) * int(cp.KernelW)
	if taps < 1 || !isProduct(len(q.w), taps, q.oc) {
		return
	}
	q.dw, _ = gemm.NewQDW(q.w, q.bias, q.scale, taps, q.oc, q.xzp, q.yzp, q.lo, q.hi)
}

// depthwiseQ8 runs a depthwise convolution without a channel multiplier on gemm.QDW.
func (q *qlinear) depthwiseQ8(p *plan, xq, y []int8) error {
	c := &q.geom
	N, H, W, C, OH, OW := c.N, c.H, c.W, c.C, c.OH, c.OW
	taps := c.KH * c.KW
	key := dwKey{N, H, W, C, len(xq)}
	if q.dwOffs == nil || q.dwKey != key {
		offs, err := tapOffsets(c, len(xq))
		if err != nil {
			return err
		}
		q.dwOffs, q.dwKey = offs, key
	}
	var failed atomic.Pointer[error]
	pixels := N * OH * OW
	p.parallel(pixels, max(OW, 1), pixels*C*taps, func(p0, p1 int) {
		if err := q.dw.Run(xq, q.dwOffs[p0*taps:p1*taps], p1-p0, y[p0*C:], C); err != nil {
			failed.Store(&err)
		}
	})
	if e := failed.Load(); e != nil {
		return errorf("%v", *e)
	}
	return nil
}

// tapOffsets is a convolution's indirection table (depthwise and grouped fp32, int8 depthwise
// and indirect GEMM) for an NHWC input of n elements: for every output pixel and kernel tap
// (kernel rows, then columns), the element offset of the input pixel it reads, or -1 in the
// padding.
func tapOffsets(c *convGeom, n int) ([]int32, error) {
	N, H, W, C, KH, KW, OH, OW := c.N, c.H, c.W, c.C, c.KH, c.KW, c.OH, c.OW
	if uint64(n) >= 1<<31 {
		return nil, errorf("input %v is too large for 32-bit tap offsets", []int{N, H, W, C})
	}
	offs := make([]int32, N*OH*OW*KH*KW)
	i := 0
	for b := range N {
		for oh := range OH {
			for ow := range OW {
				for kh := range KH {
					ih := oh*c.sh - c.pt + kh*c.dh
					for kw := range KW {
						iw := ow*c.sw - c.pl + kw*c.dw
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
	return offs, nil
}

// convIndirect runs an ungrouped convolution over C (a multiple of 4) input channels as
// XNNPACK's indirect GEMM: the filter times the input read in place through a tap table cached
// per input shape, padding taps reading a row of the input zero point.
func (q *qlinear) convIndirect(p *plan, xq, y []int8, c *convGeom, qs *gemm.QS8) error {
	key := dwKey{c.N, c.H, c.W, c.C, len(xq)}
	pixels := c.N * c.OH * c.OW
	if q.ind == nil || q.indKey != key {
		offs, err := tapOffsets(c, len(xq))
		if err != nil {
			return err
		}
		if q.ind, err = gemm.NewQIndirect(offs, pixels, c.KH*c.KW, c.C, len(xq)); err != nil {
			return errorf("conv input %v: %v", []int{c.N, c.H, c.W, c.C}, err)
		}
		q.indKey = key
		q.zrow = make([]int8, c.C)
		fillQ8(q.zrow, int8(q.xzp))
	}
	OC := c.OC
	panels := qs.P.Panels()
	work := pixels*qs.P.K*OC + 4*qs.P.K*OC
	var failed atomic.Pointer[error]
	if p.threads <= 1 || pixels >= 2*6*p.threads || panels < 2 {
		p.parallel(pixels, 6, work, func(a, b int) {
			if err := qs.RunIndirect(q.ind, xq, q.zrow, a, b, y[a*OC:], OC, 0, panels); err != nil {
				failed.Store(&err)
			}
		})
	} else {
		p.parallel(panels, 1, work, func(j0, j1 int) {
			if err := qs.RunIndirect(q.ind, xq, q.zrow, 0, pixels, y, OC, j0, j1); err != nil {
				failed.Store(&err)
			}
		})
	}
	if e := failed.Load(); e != nil {
		return errorf("%v", *e)
	}
	return nil
}
