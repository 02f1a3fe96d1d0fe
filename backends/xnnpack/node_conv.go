package xnnpack

import (
	"sync/atomic"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// The convolution family: convolution, depthwise convolution and transposed convolution, in
// fp32 and statically quantized (XNNPACK's integer arithmetic: int32 sums of (x - x_zp)·w from
// the bias, requantized per output channel). Both element types share the loops: one geometry
// (convGeometry), one im2col-and-multiply driver (convolve: fp32 multiplies by the filter packed
// at init on gemm's kernels, the integer kernel by qlinear.gemm), one direct depthwise loop
// (depthwiseDirect: the integer kernel's, and fp32's with a channel multiplier; fp32 without one
// runs gemm's depthwise kernels on an indirection table) and one deconvolution scatter
// (deconvScatter). fp32 convolution and depthwise convolution apply their output range and a
// fused activation in their stores.

func init() {
	registerNode(schema.XNodeUnionXNNConv2d, nodeKernel{run: conv2d, ownRange: true, takesActivation: true,
		// XNNPACK runs a 1×1, stride-1, unpadded, ungrouped convolution as a GEMM.
		operatorOf: func(n *xnngraph.Node) string {
			if cp := n.Conv; cp != nil && cp.KernelH == 1 && cp.KernelW == 1 && cp.StrideH == 1 && cp.StrideW == 1 && cp.Groups == 1 &&
				cp.PadTop|cp.PadRight|cp.PadBottom|cp.PadLeft == 0 {
				return "Fully Connected (NC, F32) GEMM"
			}
			return "Convolution (NHWC, F32) IGEMM"
		},
		pack: func(n *xnngraph.Node, w *tensor) []*gemm.PackedB {
			cp := n.Conv
			if groupedDirect(cp) {
				return nil // packed for gemm.GroupConv on first use instead
			}
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
					q.packQS8(G, KH*KW*GIC, GOC)
				}
			}
			return q.conv, nil
		}})
	registerNode(schema.XNodeUnionXNNDepthwiseConv2d, nodeKernel{run: depthwiseConv2d, ownRange: true, takesActivation: true,
		operator: "Convolution (NHWC, F32) DWConv",
		quant: func(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
			q, err := p.quantLinear(k, n, 3) // [1, kh, kw, channels·multiplier]
			if err != nil {
				return nil, err
			}
			q.packQDW(n.Conv)
			return q.depthwise, nil
		}})
	registerNode(schema.XNodeUnionXNNConvTranspose2d, nodeKernel{run: convTranspose2d, operator: "Deconvolution (NHWC, F32)",
		quant: func(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
			q, err := p.quantLinear(k, n, 0) // [out, kh, kw, in]
			if err != nil {
				return nil, err
			}
			return q.convTranspose, nil
		}})
}

// convGeom is a (depthwise, transposed) convolution's geometry: its parameters, read for an
// NHWC input, and its output extent.
type convGeom struct {
	N, H, W, C, G, GIC, GOC, KH, KW, OC int
	sh, sw, dh, dw, pt, pl              int
	OH, OW                              int
}

// convGeometry reads n's convolution parameters for NHWC input x and checks them against the
// filter's dims wdims: [groups·gout, kh, kw, gin], or [1, kh, kw, channels·multiplier] for a
// depthwise convolution (what names the operation in errors). The sizes come from an untrusted
// blob, so products are checked without overflow. OH and OW are a convolution's output extent
// (a deconvolution's is deconvOutput's).
func convGeometry(n *xnngraph.Node, x *tensor, wdims []int, what string) (convGeom, error) {
	var c convGeom
	cp := n.Conv
	if len(x.dims) != 4 { // (nhwc's message, built only on failure: a concatenation allocates)
		return c, errorf("%s input must be 4-d NHWC, got %v", what, x.dims)
	}
	c.N, c.H, c.W, c.C = x.dims[0], x.dims[1], x.dims[2], x.dims[3]
	c.G, c.GIC, c.GOC = int(cp.Groups), int(cp.GroupInputChannels), int(cp.GroupOutputChannels)
	c.KH, c.KW = int(cp.KernelH), int(cp.KernelW)
	c.OC = c.G * c.GOC
	ok := len(wdims) == 4 && wdims[1] == c.KH && wdims[2] == c.KW
	if n.Op == schema.XNodeUnionXNNDepthwiseConv2d {
		if c.C != c.G || !ok || wdims[0] != 1 || !isProduct(wdims[3], c.G, c.GOC) {
			return c, errorf("depthwise input %v and filter %v do not match %d channels x %d, kernel %dx%d", x.dims, wdims, c.G, c.GOC, c.KH, c.KW)
		}
	} else if c.G < 1 || !isProduct(c.C, c.G, c.GIC) || !ok || !isProduct(wdims[0], c.G, c.GOC) || wdims[3] != c.GIC {
		return c, errorf("%s input %v and filter %v do not match groups %d x (%d in, %d out), kernel %dx%d", what, x.dims, wdims, c.G, c.GIC, c.GOC, c.KH, c.KW)
	}
	c.sh, c.sw, c.dh, c.dw = int(cp.StrideH), int(cp.StrideW), max(int(cp.DilationH), 1), max(int(cp.DilationW), 1)
	c.pt, c.pl = int(cp.PadTop), int(cp.PadLeft)
	c.OH, c.OW = outSize(c.H, c.pt, int(cp.PadBottom), c.KH, c.sh, c.dh), outSize(c.W, c.pl, int(cp.PadRight), c.KW, c.sw, c.dw)
	return c, nil
}

// fp32Conv is an fp32 convolution node's operands for the call running, in a record the node
// keeps across calls: the parallel tasks capture it, so a fresh one would be a heap allocation per
// node per Execute.
type fp32Conv struct {
	convGeom
	packed  []*gemm.PackedB
	bias, y []float32
	lo, hi  float32
	act     actFunc
	// gtab and gfilter are a grouped convolution's indirection table and packed filter
	// (groupedDirect).
	gtab    *dwTable
	gfilter *gemm.GroupFilter
}

// fp32Conv returns node n's record with its geometry read for input x and filter w.
func (p *plan) fp32Conv(n *xnngraph.Node, x, w *tensor, what string) (*fp32Conv, error) {
	f := p.convRecs[n]
	if f == nil {
		f = new(fp32Conv)
		if p.convRecs == nil {
			p.convRecs = map[*xnngraph.Node]*fp32Conv{}
		}
		p.convRecs[n] = f
	}
	var err error
	f.convGeom, err = convGeometry(n, x, w.dims, what)
	return f, err
}

// convBias is an fp32 node's bias (nil without one), checked for oc output channels.
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

// packedFilter returns a node's filter packed at init, or packs a non-constant one now.
func (p *plan) packedFilter(n *xnngraph.Node, w []float32) []*gemm.PackedB {
	if pw, ok := p.packed[n]; ok {
		return pw
	}
	return packConv(w, n.Conv)
}

// patchMul is how a convolution kernel multiplies its patch matrices (rows of KH·KW·GIC values,
// elements T) by its filter into output pixels. The fp32 kernel (fp32Conv) and the integer one
// (qlinear) implement it on records they keep across calls.
type patchMul[T float32 | int32] interface {
	// all multiplies every output pixel's patches at once (one group), splitting the work
	// across the plan's threads itself.
	all(p *plan, pixels int, a []T, lda int)
	// block multiplies group g's patches of output pixels [pixel0, pixel0+pixels), inside a
	// task.
	block(g, pixel0, pixels int, a []T, lda int)
	// done finishes output pixels [pixel0, pixel1) once every group of a block is written
	// (fp32: a fused activation, while the block is in cache).
	done(pixel0, pixel1 int)
}

// convolve runs a grouped NHWC convolution of x as patch matrices times the filter: a 1x1
// convolution multiplies the input itself; small outputs (deep layers: 14x14, 7x7) build one
// patch matrix for every output pixel, so the weights (MBs at K = 9·512) are read once per
// layer, not once per output row; other convolutions build blocks of output rows, each patch
// matrix about an L2's share, per task. The fp32 and the integer kernels differ only in m.
func convolve[T float32 | int32](p *plan, c *convGeom, x []T, m patchMul[T]) {
	N, H, W, C, G, OC := c.N, c.H, c.W, c.C, c.G, c.OC
	copyRuns := stridedCopyOf[T]()
	OH, OW := c.OH, c.OW
	K := c.KH * c.KW * c.GIC
	if G == 1 && c.KH == 1 && c.KW == 1 && c.sh == 1 && c.sw == 1 && c.pt == 0 && c.pl == 0 && OH == H && OW == W {
		m.all(p, N*H*W, x, C)
		return
	}
	if G == 1 && N*OH*OW*K <= wholeIm2colMax && K*OC >= wholeIm2colMinB {
		col := scratchOf[T](p, N*OH*OW*K)
		p.parallel(N*OH, 1, 4*N*OH*OW*K, func(r0, r1 int) {
			for r := r0; r < r1; r++ {
				im2colRow(col[r*OW*K:(r+1)*OW*K], x, r/OH, r%OH, 0, c, copyRuns)
			}
		})
		m.all(p, N*OH*OW, col, K)
		return
	}
	blockRows := max(1, im2colBlock/max(OW*K, 1))
	pool := colPoolOf[T](p)
	p.parallel(N*OH, blockRows, N*OH*OW*K*OC, func(r0, r1 int) {
		buf := pool.Get().(*[]T)
		defer pool.Put(buf)
		if need := min(blockRows, r1-r0) * OW * K; cap(*buf) < need {
			*buf = make([]T, need)
		}
		col := *buf
		for b0 := r0; b0 < r1; b0 += blockRows {
			b1 := min(b0+blockRows, r1)
			for g := 0; g < G; g++ {
				for r := b0; r < b1; r++ {
					im2colRow(col[(r-b0)*OW*K:(r-b0+1)*OW*K], x, r/OH, r%OH, g, c, copyRuns)
				}
				// Output rows r are contiguous across images too: pixel (r, ow) is r·OW+ow.
				m.block(g, b0*OW, (b1-b0)*OW, col, K)
			}
			m.done(b0*OW, b1*OW)
		}
	})
}

// wholeIm2colMax (elements: 4 MiB) is the largest patch matrix built whole for one GEMM, and
// only for weights of at least wholeIm2colMinB elements (256 KiB), whose re-reads it saves;
// other convolutions (a first layer over 3 channels) build im2colBlock-sized blocks (128 KiB)
// that are multiplied while still in cache.
const (
	wholeIm2colMax  = 1 << 20
	wholeIm2colMinB = 64 << 10
	im2colBlock     = 32 << 10
)

// conv2d: NHWC input, filter [groups*group_out, kh, kw, group_in]: patch matrices times the
// packed filter, the bias and the node's output range fused into the GEMM's store.
func conv2d(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	w, err := p.in(n.Inputs[1])
	if err != nil {
		return err
	}
	f, err := p.fp32Conv(n, x, w, "conv")
	if err != nil {
		return err
	}
	if f.bias, err = convBias(p, n, f.OC); err != nil {
		return err
	}
	f.y = p.out(n.Outputs[0], []int{f.N, f.OH, f.OW, f.OC}).data
	f.lo, f.hi, f.act = n.OutputMin, n.OutputMax, p.act(n)
	if groupedDirect(n.Conv) {
		return f.grouped(p, n, x, w)
	}
	f.packed = p.packedFilter(n, w.data)
	convolve[float32](p, &f.convGeom, x.data, f)
	return nil
}

// groupedDirect says a convolution runs as gemm.GroupConv: several groups of at most
// groupDirectMaxOut output channels each (RegNet's and ResNeXt's groups of 8 to 32 channels).
// Through im2col each tap's few channels were copied one short run at a time and each group's
// patches multiplied on a 16- or 32-column panel holding 8 real columns; the direct kernel
// reads the input pixels through an indirection table (as XNNPACK's grouped IGEMM) into 8×8
// register tiles.
func groupedDirect(cp *xnngraph.ConvParams) bool {
	return cp != nil && cp.Groups > 1 && cp.GroupOutputChannels <= groupDirectMaxOut && int(cp.KernelH)*int(cp.KernelW) <= 64
}

const groupDirectMaxOut = 32

// grouped runs f as gemm.GroupConv: the input's indirection table cached per input shape, the
// filter packed once when it and the bias are constants (else every call), output pixels split
// across threads in blocks of rows.
func (f *fp32Conv) grouped(p *plan, n *xnngraph.Node, x, w *tensor) error {
	c := &f.convGeom
	N, H, W, C, KH, KW, OH, OW := c.N, c.H, c.W, c.C, c.KH, c.KW, c.OH, c.OW
	key := dwKey{N, H, W, C, len(x.data)}
	if f.gtab == nil || f.gtab.key != key {
		offs, err := tapOffsets(c, len(x.data))
		if err != nil {
			return err
		}
		t, err := gemm.NewDWTaps(offs, N*OH*OW, KH*KW, C, len(x.data))
		if err != nil {
			return errorf("conv input %v: %v", x.dims, err)
		}
		f.gtab = &dwTable{key: key, taps: t, zeros: make([]float32, C)}
	}
	constant := p.isConst[p.index[n.Inputs[1]]] && (n.Inputs[2] == xnngraph.InvalidID || p.isConst[p.index[n.Inputs[2]]])
	gf := f.gfilter
	if gf == nil || !constant {
		var err error
		if gf, err = gemm.PackGroupFilter(w.data, f.bias, c.G, c.GOC, KH*KW, c.GIC); err != nil {
			return errorf("conv filter %v: %v", w.dims, err)
		}
		if constant {
			f.gfilter = gf
		}
	}
	var failed atomic.Bool
	tab, y, OC := f.gtab, f.y, c.OC
	p.parallel(N*OH*OW, max(OW, 1), N*OH*OW*OC*KH*KW*c.GIC, func(p0, p1 int) {
		if err := tab.taps.GroupConv(y[p0*OC:p1*OC], OC, x.data, p0, p1, gf, tab.zeros, f.lo, f.hi); err != nil {
			failed.Store(true)
		}
		if f.act != nil {
			f.act(y[p0*OC:p1*OC], p0*OC)
		}
	})
	if failed.Load() {
		return errorf("conv operands of %v disagree with the filter %v", x.dims, w.dims)
	}
	return nil
}

func (f *fp32Conv) all(p *plan, pixels int, a []float32, lda int) {
	p.gemmBias(f.packed[0], pixels, a, lda, f.bias, f.y, f.OC, f.lo, f.hi, f.act)
}

func (f *fp32Conv) block(g, pixel0, pixels int, a []float32, lda int) {
	var gb []float32
	if f.bias != nil {
		gb = f.bias[g*f.GOC : (g+1)*f.GOC]
	}
	f.packed[g].GemmBias(pixels, a, lda, gb, f.y[pixel0*f.OC+g*f.GOC:], f.OC, f.lo, f.hi)
}

func (f *fp32Conv) done(pixel0, pixel1 int) {
	if f.act != nil {
		f.act(f.y[pixel0*f.OC:pixel1*f.OC], pixel0*f.OC)
	}
}

// im2colRow writes output row oh's patches of group g as OW rows of KH·KW·GIC values (zeros in the
// padding). With dilation 1 and one group a kernel row's taps are adjacent input pixels, so for
// the output pixels whose window lies inside the input each kernel row is one run of KW·C values:
// one strided copy per kernel row covers them all. Border pixels go tap by tap.
func im2colRow[T float32 | int32](col, x []T, b, oh, g int, c *convGeom, copyRuns func([]T, int, []T, int, int, int) bool) {
	H, W, C, GIC, KH, KW, sw, pl, OW := c.H, c.W, c.C, c.GIC, c.KH, c.KW, c.sw, c.pl, c.OW
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
		if hi > lo && !copyRuns(col[lo*K+kh*run:], K, x[base+(lo*sw-pl)*C:], sw*C, hi-lo, run) {
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
func copySmall[T float32 | int32](d, s []T) {
	switch len(d) {
	case 3:
		*(*[3]T)(d) = [3]T(s)
	case 9:
		*(*[9]T)(d) = [9]T(s)
	case 21:
		*(*[21]T)(d) = [21]T(s)
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

// stridedCopyOf is gemm.StridedCopy for T, or stridedCopy for the element types it has no kernel
// for.
func stridedCopyOf[T float32 | int32]() func([]T, int, []T, int, int, int) bool {
	if f, ok := any(gemm.StridedCopy).(func([]T, int, []T, int, int, int) bool); ok {
		return f
	}
	return stridedCopy[T]
}

// stridedCopy is gemm.StridedCopy in Go.
func stridedCopy[T any](dst []T, dstStride int, src []T, srcStride int, count, run int) bool {
	if count <= 0 || run <= 0 {
		return count >= 0 && run >= 0
	}
	if dstStride < 0 || srcStride < 0 || (count-1)*dstStride+run > len(dst) || (count-1)*srcStride+run > len(src) {
		return false
	}
	for r := 0; r < count; r++ {
		copy(dst[r*dstStride:r*dstStride+run], src[r*srcStride:r*srcStride+run])
	}
	return true
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

// depthwiseConv2d: NHWC input, filter [1, kh, kw, channels*multiplier].
func depthwiseConv2d(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	w, err := p.in(n.Inputs[1])
	if err != nil {
		return err
	}
	f, err := p.fp32Conv(n, x, w, "depthwise")
	if err != nil {
		return err
	}
	c := &f.convGeom
	N, H, W, C, M, KH, KW, OC := c.N, c.H, c.W, c.C, c.GOC, c.KH, c.KW, c.OC
	sh, sw, dh, dw, pt, pl, OH, OW := c.sh, c.sw, c.dh, c.dw, c.pt, c.pl, c.OH, c.OW
	bias, err := convBias(p, n, OC)
	if err != nil {
		return err
	}
	y := p.out(n.Outputs[0], []int{N, OH, OW, OC})
	if bias == nil {
		bias = make([]float32, OC)
	}
	lo, hi := n.OutputMin, n.OutputMax // fused: depthwise applies its own output range
	if M != 1 {
		// A channel multiplier: output channel o reads input channel o/M. Rare; plain loops.
		p.parallel(N*OH, 1, N*OH*OW*OC*KH*KW, func(r0, r1 int) {
			depthwiseDirect(x.data, w.data, bias, c, r0, r1,
				func(pixel int) []float32 { return y.data[pixel*OC:][:OC] },
				func(_ int, acc []float32) { gemm.Clamp(acc, lo, hi) })
		})
		return nil
	}
	// One output channel per input channel: every tap of an output pixel is an input pixel (or
	// zeros at the border), read through an indirection table built once per input shape.
	key := dwKey{N, H, W, C, len(x.data)}
	tab := p.dwTaps[n]
	if tab == nil || tab.key != key {
		offs, err := tapOffsets(c, len(x.data))
		if err != nil {
			return err
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
			act(y.data[p0*OC:p1*OC], p0*OC)
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

// depthwise is the quantized depthwise convolution: depthwiseDirect on the centered input,
// requantized pixel by pixel.
func (q *qlinear) depthwise(p *plan, n *xnngraph.Node) error {
	x, xq, err := inOf[int8](p, n.Inputs[0])
	if err != nil {
		return err
	}
	if q.geom, err = convGeometry(n, x, q.wdims, "depthwise"); err != nil {
		return err
	}
	c := &q.geom
	OC := c.OC
	_, yq := outOf[int8](p, n.Outputs[0], []int{c.N, c.OH, c.OW, OC})
	if q.dw != nil && c.GOC == 1 {
		return q.depthwiseQ8(p, xq[:c.N*c.H*c.W*c.C], yq)
	}
	xi := q.centered(xq[:c.N*c.H*c.W*c.C])
	p.parallel(c.N*c.OH, 1, c.N*c.OH*c.OW*OC*c.KH*c.KW, func(r0, r1 int) {
		acc := make([]int32, OC)
		depthwiseDirect(xi, q.w, q.bias, c, r0, r1,
			func(int) []int32 { return acc },
			func(pixel int, acc []int32) {
				out := yq[pixel*OC:][:OC]
				for o, v := range acc {
					out[o] = q.store(v, o)
				}
			})
	})
	return nil
}

// depthwiseDirect computes output rows [r0, r1) (row r is image r/OH, output row r%OH) of a
// depthwise convolution pixel by pixel: acc(pixel) is set to the bias, then acc[o] += x[tap,
// o/M]·w[tap, o] over the window's taps inside the input, in kernel order, and done(pixel, acc)
// finishes it. fp32 accumulates in the pixel's output (done clamps it), the integer kernel in a
// scratch row (done requantizes it).
func depthwiseDirect[T float32 | int32](x, w, bias []T, c *convGeom, r0, r1 int, acc func(pixel int) []T, done func(pixel int, acc []T)) {
	H, W, C, M, KH, KW, OC := c.H, c.W, c.C, c.GOC, c.KH, c.KW, c.OC
	sh, sw, dh, dw, pt, pl, OH, OW := c.sh, c.sw, c.dh, c.dw, c.pt, c.pl, c.OH, c.OW
	for r := r0; r < r1; r++ {
		b, oh := r/OH, r%OH
		for ow := 0; ow < OW; ow++ {
			pixel := (b*OH+oh)*OW + ow
			a := acc(pixel)[:OC]
			copy(a, bias)
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
					px := x[((b*H+ih)*W+iw)*C:][:C]
					wr := w[(kh*KW+kw)*OC:][:OC]
					if M == 1 {
						for o := range a {
							a[o] += px[o] * wr[o]
						}
						continue
					}
					for o := range a {
						a[o] += px[o/M] * wr[o]
					}
				}
			}
			done(pixel, a)
		}
	}
}

// convTranspose2d: NHWC input, filter [groups*group_out, kh, kw, group_in].
func convTranspose2d(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	w, err := p.in(n.Inputs[1])
	if err != nil {
		return err
	}
	f, err := p.fp32Conv(n, x, w, "deconvolution")
	if err != nil {
		return err
	}
	c := &f.convGeom
	bias, err := convBias(p, n, c.OC)
	if err != nil {
		return err
	}
	if c.OH, c.OW, err = deconvOutput(x.dims, c, n.Conv); err != nil {
		return err
	}
	OC := c.OC
	y := p.out(n.Outputs[0], []int{c.N, c.OH, c.OW, OC})
	for i := 0; i < len(y.data); i += OC {
		if bias != nil {
			copy(y.data[i:i+OC], bias)
		} else {
			clear(y.data[i : i+OC])
		}
	}
	deconvScatter(y.data, x.data, w.data, c)
	return nil
}

// convTranspose is the quantized transposed convolution: deconvScatter of the centered input
// into int32 accumulators from the bias, then requantized.
func (q *qlinear) convTranspose(p *plan, n *xnngraph.Node) error {
	x, xq, err := inOf[int8](p, n.Inputs[0])
	if err != nil {
		return err
	}
	if q.geom, err = convGeometry(n, x, q.wdims, "deconvolution"); err != nil {
		return err
	}
	c := &q.geom
	if c.OH, c.OW, err = deconvOutput(x.dims, c, n.Conv); err != nil {
		return err
	}
	OC := c.OC
	_, yq := outOf[int8](p, n.Outputs[0], []int{c.N, c.OH, c.OW, OC})
	xi := q.centered(xq[:c.N*c.H*c.W*c.C])
	acc := make([]int32, len(yq))
	for i := 0; i < len(acc); i += OC {
		copy(acc[i:i+OC], q.bias)
	}
	deconvScatter(acc, xi, q.w, c)
	for i, a := range acc {
		yq[i] = q.store(a, i%OC)
	}
	return nil
}

// deconvScatter adds every input pixel's products with the filter [groups·gout, kh, kw, gin]
// into the outputs (NHWC, OH×OW) it reaches: out[o] += Σ_i x[g·GIC+i]·w[o, kh, kw, i] for each
// output channel o of group g, pixel by pixel and tap by tap, so the fp32 sums round as they
// always have (the integer ones are exact in any order).
func deconvScatter[T float32 | int32](acc, x, w []T, c *convGeom) {
	N, H, W, C, G, GIC, GOC, KH, KW, OC := c.N, c.H, c.W, c.C, c.G, c.GIC, c.GOC, c.KH, c.KW, c.OC
	sh, sw, dh, dw, pt, pl, OH, OW := c.sh, c.sw, c.dh, c.dw, c.pt, c.pl, c.OH, c.OW
	for b := 0; b < N; b++ {
		for ih := 0; ih < H; ih++ {
			for iw := 0; iw < W; iw++ {
				px := x[((b*H+ih)*W+iw)*C:][:C]
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
						for g := 0; g < G; g++ {
							xin := px[g*GIC : g*GIC+GIC]
							for o := g * GOC; o < (g+1)*GOC; o++ {
								wr := w[((o*KH+kh)*KW+kw)*GIC:][:GIC]
								var s T
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
}

// deconvOutput is a deconvolution's output height and width. XNNPACK's reshape refuses an empty
// input and an adjustment (output_padding) that is not below the stride (torch also allows one
// below the dilation); an output with no pixels, where the padding crops everything, crashes the
// official runtime: all three are errors here.
func deconvOutput(dims []int, c *convGeom, cp *xnngraph.ConvParams) (OH, OW int, err error) {
	H, W, KH, KW, sh, sw, dh, dw, pt, pl := c.H, c.W, c.KH, c.KW, c.sh, c.sw, c.dh, c.dw, c.pt, c.pl
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
