package xnnpack

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/x448/float16"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/executor"
)

// fp16 graphs (a model in .half() lowered by the XnnpackPartitioner, whose configs take float16
// as they take float32): values, constants and the delegate's tensors are fp16.
//
// How the official runtime computes them on x86 without AVX512-FP16 (the machine that made
// testdata/fp16: AMD Zen 5, AVX-512 with F16C but no FP16 arithmetic): XNNPACK's f16 operators
// there load fp16 into fp32 (VCVTPH2PS), compute in fp32 and round the result to fp16 once as
// they store it (VCVTPS2PH, to nearest even). Its f16 GEMMs (fully connected, convolution) are
// the f16_f32acc avx512skx kernels: fp32 accumulation across the whole dot product, from the
// fp16 bias, rounded once; the elementwise and pooling kernels are the F16C ones, one fp32
// operation per element rounded to fp16. So etgo keeps fp16 values as fp32 numbers that are
// exactly representable in fp16, runs its fp32 kernels, and rounds every node's fp16 output to
// fp16 after the node (roundF16), converting at the graph's edges. Differences from the official
// runtime remain where XNNPACK's fp32 arithmetic inside a node differs from etgo's fp32 kernels
// (the GEMMs' summation order and blocking; its f16 sigmoid, tanh, exp, softmax polynomials,
// which are lower degree than the fp32 ones), each at most a few fp16 ulps
// (tolerance: 1e-2 relative to the official outputs, testdata/fp16).

// constant16 loads a 16-bit float constant (fp16 or bf16, named by what) widened to fp32 by
// widen (exact for both).
func constant16(g *xnngraph.Graph, v *xnngraph.Value, named func(string) ([]byte, error), what string, widen func(uint16) float32) ([]float32, error) {
	raw, err := g.ConstantBytes(v.ID, v.ConstantIdx, named)
	if err != nil {
		return nil, err
	}
	n := uint64(1)
	for _, d := range v.Dims {
		n *= uint64(d)
	}
	if uint64(len(raw)) != 2*n {
		return nil, errorf("value %d: constant has %d bytes, its dims %v of %s are %d", v.ID, len(raw), v.Dims, what, 2*n)
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = widen(binary.LittleEndian.Uint16(raw[2*i:]))
	}
	return out, nil
}

func f16ToF32(b uint16) float32 { return float16.Frombits(b).Float32() }

// roundF16 rounds x to fp16 in place (to nearest even, as VCVTPS2PH with
// _MM_FROUND_TO_NEAREST_INT; NaN stays NaN, overflow becomes ±Inf).
func roundF16(x []float32) {
	for i, v := range x {
		x[i] = float16.Fromfloat32(v).Float32()
	}
}

// bindF16Input widens fp16 graph input tensor t into value i's own buffer.
func (p *plan) bindF16Input(i int, t *executor.Tensor) {
	src := executor.Data[uint16](t)
	v := &p.vals[i]
	if cap(v.f16in) < len(src) {
		v.f16in = make([]float32, len(src))
	}
	v.f16in = v.f16in[:len(src)]
	for k, b := range src {
		v.f16in[k] = float16.Frombits(b).Float32()
	}
	v.data = v.f16in
}

// storeF16Output narrows value i into fp16 output tensor t.
func (p *plan) storeF16Output(i int, t *executor.Tensor) {
	v := &p.vals[i]
	dst := executor.Data[uint16](t)
	for k, x := range v.data[:v.numel()] {
		dst[k] = float16.Fromfloat32(x).Bits()
	}
}

// roundF16Outputs rounds node n's fp16 outputs after it runs (XNNPACK's store).
func (p *plan) roundF16Outputs(n *xnngraph.Node) {
	for _, id := range n.Outputs {
		if id == xnngraph.InvalidID {
			continue
		}
		if i := p.index[id]; p.f16[i] {
			v := &p.vals[i]
			roundF16(v.data[:v.numel()])
		}
	}
}

// f16Kernels replaces the kernels of the fp16 nodes whose XNNPACK f16 kernels treat NaN
// otherwise than the fp32 ones etgo runs (testdata/fp16's nonfinite inputs):
//   - fully connected layers, batch matrix multiplies, (depthwise, transposed) convolutions: the
//     f16_f32acc GEMMs and the f16 depthwise kernels clamp value first, MAXPS(acc, min): a NaN
//     becomes the lower bound (-Inf without an activation, 0 after a fused ReLU), where the fp32
//     kernels keep it (testdata/fp16/matmul_mean: a NaN product turns the mean after it -Inf);
//   - max pooling: XNNPACK's f16 kernel compares the fp16 bits as integers (sign-complemented,
//     so the order is the numbers' for non-NaN values), where a positive NaN is above +Inf and a
//     negative one below -Inf; the output range then turns them into +Inf and -Inf.
//
// It also refuses what XNNPACK's subgraph refuses of fp16 nodes: an fp16 operand beside an fp32
// one in the activation roles of any node but a Convert (XNNPACK checks that a node's inputs and
// outputs share their datatype; only a GEMM's constant filter and bias may be fp32 beside fp16
// activations).
func (p *plan) f16Kernels() error {
	for k := range p.steps {
		s := &p.steps[k]
		n := s.node
		if err := p.checkF16Operands(p.order[k], n); err != nil {
			return err
		}
		if len(n.Outputs) != 1 || n.Outputs[0] == xnngraph.InvalidID || !p.f16[p.index[n.Outputs[0]]] {
			continue
		}
		run := s.run
		switch n.Op {
		case schema.XNodeUnionXNNDepthwiseConv2d:
			if cp := n.Conv; cp != nil && uint64(cp.KernelH)*uint64(cp.KernelW) <= 9 && !p.isF16Fused(n) {
				s.run = depthwiseF16
				continue
			}
			fallthrough
		case schema.XNodeUnionXNNFullyConnected, schema.XNodeUnionXNNConv2d, schema.XNodeUnionXNNConvTranspose2d,
			schema.XNodeUnionXNNBatchMatrixMultiply:
			s.run = func(p *plan, n *xnngraph.Node) error {
				if err := run(p, n); err != nil {
					return err
				}
				y := p.val(n.Outputs[0])
				lo := min(n.OutputMin, n.OutputMax) // MINPS(MAXPS(NaN, min), max)
				for i, v := range y.data[:y.numel()] {
					if v != v {
						y.data[i] = lo
					}
				}
				return nil
			}
		case schema.XNodeUnionXNNSoftmax:
			s.run = softmaxF16
		case schema.XNodeUnionXNNTanh:
			s.run = unaryF16(tanhF16)
		case schema.XNodeUnionXNNSigmoid:
			s.run = unaryF16(sigmoidF16)
		case schema.XNodeUnionXNNHardswish:
			if p.act(n) == nil {
				s.run = unaryF16(hardswishF16)
			}
		case schema.XNodeUnionXNNMaxPooling2d:
			s.run = func(p *plan, n *xnngraph.Node) error {
				x := p.val(n.Inputs[0])
				saved := x.data
				if !hasNaN(saved[:min(x.numel(), len(saved))]) {
					return run(p, n)
				}
				// The taps as fp16 orders them: a NaN as an infinity of its sign.
				keys := make([]float32, len(saved))
				for i, v := range saved {
					if v != v {
						v = float32(math.Inf(1))
						if math.Signbit(float64(saved[i])) {
							v = float32(math.Inf(-1))
						}
					}
					keys[i] = v
				}
				x.data = keys
				err := run(p, n)
				x.data = saved
				return err
			}
		}
	}
	return nil
}

// checkF16Operands refuses node k mixing fp16 and fp32 activations (f16Kernels).
func (p *plan) checkF16Operands(k int, n *xnngraph.Node) error {
	if n.Op == schema.XNodeUnionXNNConvert {
		return nil
	}
	gemm := n.Op == schema.XNodeUnionXNNFullyConnected || n.Op == schema.XNodeUnionXNNConv2d ||
		n.Op == schema.XNodeUnionXNNDepthwiseConv2d || n.Op == schema.XNodeUnionXNNConvTranspose2d
	var f16, f32 bool
	for j, id := range append(append([]uint32(nil), n.Inputs...), n.Outputs...) {
		if id == xnngraph.InvalidID || (gemm && (j == 1 || j == 2) && j < len(n.Inputs)) {
			continue // (a GEMM's filter and bias may be fp32)
		}
		i := p.index[id]
		if p.quant[i] != nil {
			continue // (quantized operands are checked by their kernels)
		}
		f16 = f16 || p.f16[i]
		f32 = f32 || !p.f16[i]
	}
	if f16 && f32 {
		return fmt.Errorf("%w: node %d (%s) mixes fp16 and fp32 operands; XNNPACK requires one datatype", ErrUnsupported, k, n.OpName())
	}
	return nil
}

func hasNaN(x []float32) bool {
	for _, v := range x {
		if v != v {
			return true
		}
	}
	return false
}

// depthwiseF16 is XNNPACK's f16 depthwise convolution on x86 with FMA3 for kernels of up to 9
// taps (f16-dwconv-{3,4,9}p16c-minmax-fma3, one accumulator): from the fp16 bias, each tap
// in XNNPACK's indirection order (kernel column outer, row inner) is one fp32 FMA whose result
// is rounded to fp16 (VCVTPS2PH then back), padding taps reading zeros; the primary tile's
// unused taps (zero weights on the pixels the indirection buffer holds next, dwconvIndirection)
// turn the accumulator NaN where those pixels are NaN or infinite; then the output range, value
// first (a NaN becomes the lower bound; testdata/fp16/batchnorm's 1×1 kernel shows both). Larger kernels (the 25-tap kernel with two
// accumulators, multipass kernels) run etgo's fp32 depthwise convolution, rounded once.
func depthwiseF16(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	w, err := p.in(n.Inputs[1])
	if err != nil {
		return err
	}
	c, err := convGeometry(n, x, w.dims, "depthwise")
	if err != nil {
		return err
	}
	bias, err := convBias(p, n, c.OC)
	if err != nil {
		return err
	}
	if len(w.data) < c.KH*c.KW*c.OC {
		return errorf("depthwise filter of %d values for %dx%d taps of %d channels", len(w.data), c.KH, c.KW, c.OC)
	}
	y := p.out(n.Outputs[0], []int{c.N, c.OH, c.OW, c.OC}).data
	lo, hi := n.OutputMin, n.OutputMax
	mult := c.GOC
	ind, stepH, stepW, tile := dwconvIndirection(c)
	for b := range c.N {
		for oh := range c.OH {
			for ow := range c.OW {
				out := y[((b*c.OH+oh)*c.OW+ow)*c.OC:][:c.OC]
				for oc := range out {
					var acc float32
					if bias != nil {
						acc = bias[oc]
					}
					ic := oc / mult
					for kw := range c.KW {
						iw := ow*c.sw - c.pl + kw*c.dw
						for kh := range c.KH {
							ih := oh*c.sh - c.pt + kh*c.dh
							var v float32
							if ih >= 0 && ih < c.H && iw >= 0 && iw < c.W {
								v = x.data[((b*c.H+ih)*c.W+iw)*c.C+ic]
							}
							acc = float16.Fromfloat32(fma32(v, w.data[(kh*c.KW+kw)*c.OC+oc], acc)).Float32()
						}
					}
					// The tile's unused taps: zero weights on the pixels the indirection buffer
					// holds after this window's (0·NaN and 0·Inf are NaN; finite ones add 0).
					for e := oh*stepH + ow*stepW*c.KH + c.KH*c.KW; e < oh*stepH+ow*stepW*c.KH+tile; e++ {
						if px := ind[e]; px >= 0 {
							if v := x.data[(b*c.H*c.W+int(px))*c.C+ic]; v-v != 0 {
								acc = float32(math.NaN())
							}
						}
					}
					out[oc] = x86Min(x86Max(acc, lo), hi)
				}
			}
		}
	}
	return nil
}

// dwconvIndirection is xnn_indirection_init_dwconv2d for depthwiseF16's kernels: each entry
// the input pixel (H·W index, -1 the zero buffer) of a tap, output row oy's window at
// oy·stepH + ox·stepW·KH, its taps column outer; the primary tile (3, 4 or 9: the smallest
// f16 fma3 kernel that holds the taps) reads tile entries from there, the ones past KH·KW with
// zero weights: the next windows' pixels, or, past the last window, its last pixel.
func dwconvIndirection(c convGeom) (ind []int32, stepH, stepW, tile int) {
	taps := c.KH * c.KW
	tile = 9
	if taps <= 3 {
		tile = 3
	} else if taps == 4 {
		tile = 4
	}
	stepW = c.KW
	if c.dw == 1 {
		stepW = min(c.sw, c.KW)
	}
	if c.OH <= 0 || c.OW <= 0 {
		return nil, 0, 0, tile // no output pixels: nothing reads the buffer
	}
	stepH = taps + (c.OW-1)*stepW*c.KH
	ind = make([]int32, c.OH*stepH+tile)
	for i := range ind {
		ind[i] = -1
	}
	for oy := range c.OH {
		for ky := range c.KH {
			iy := oy*c.sh + ky*c.dh - c.pt
			for ox := range c.OW {
				for kx := range c.KW {
					ix := ox*c.sw + kx*c.dw - c.pl
					px := int32(-1)
					if iy >= 0 && iy < c.H && ix >= 0 && ix < c.W {
						px = int32(iy*c.W + ix)
					}
					ind[oy*stepH+(ox*stepW+kx)*c.KH+ky] = px
				}
			}
		}
	}
	last := c.OH*stepH - taps
	for t := taps; t < tile; t++ {
		ind[last+t] = ind[c.OH*stepH-1]
	}
	return ind, stepH, stepW, tile
}

// isF16Fused reports whether fuseActivations fused a following activation into node n (whose
// fp32 kernels apply it; depthwiseF16 does not).
func (p *plan) isF16Fused(n *xnngraph.Node) bool { return p.act(n) != nil }

// softmaxF16 is XNNPACK's f16 softmax on x86 (softmax-nc.c with the f16 microkernels): per row
// the largest element (exact in fp16); then f16-raddstoreexpminusmax-avx2-rr1-p2-u32, which
// computes each exp(x - max) in fp32 by its degree-2 polynomial, stores it rounded to fp16 and
// sums the unrounded values in eight lanes (element i in lane i mod 8), folded as the kernel
// folds them; the scale is the fp16 reciprocal of the sum, and each stored exp times the scale
// is rounded to fp16 (the f16 vmulc).
func softmaxF16(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	if len(x.dims) == 0 {
		return errorf("softmax of a scalar")
	}
	y := p.out(n.Outputs[0], x.dims)
	c := x.dims[len(x.dims)-1]
	for r := 0; r+c <= x.numel() && c > 0; r += c {
		row, out := x.data[r:r+c], y.data[r:r+c]
		m := row[0]
		for _, v := range row[1:] {
			m = x86Max(v, m)
		}
		sum := expMinusMaxF16(out, row, m)
		scale := float16.Fromfloat32(1 / sum).Float32()
		for i, v := range out {
			out[i] = float16.Fromfloat32(v * scale).Float32()
		}
	}
	return nil
}

// expMinusMaxF16 is f16-raddstoreexpminusmax-avx2-rr1-p2-u32 on one row: out[i] the fp16 of
// exp(row[i] - m), the return value the kernel's fp32 sum of the unrounded exps.
func expMinusMaxF16(out, row []float32, m float32) float32 {
	const (
		log2e      = float32(0x1.715476p0)
		magic      = float32(0x1.8000FEp23)
		minusLn2   = float32(-0x1.62E43p-1)
		c2         = float32(0x1.FF3A32p-2)
		c1         = float32(0x1.039E10p+0)
		denormCut  = float32(-0x1.368000p+3)
		lanes      = 8
		mainChunks = 32
	)
	exp := func(v float32) float32 {
		vx := v - m
		vn := fma32(vx, log2e, magic)
		vs := math.Float32frombits(math.Float32bits(vn) << 23)
		vn -= magic
		vt := fma32(vn, minusLn2, vx)
		vp := fma32(c2, vt, c1)
		vt *= vs
		vf := fma32(vt, vp, vs)
		if vx < denormCut {
			vf = 0
		}
		return vf
	}
	var acc [lanes]float32
	i := 0
	for ; len(row)-i >= lanes; i += lanes { // (the u32 loop adds its four vectors in order: the same sums)
		for l := range lanes {
			f := exp(row[i+l])
			out[i+l] = float16.Fromfloat32(f).Float32()
			acc[l] += f
		}
	}
	var lo [4]float32
	for l := range 4 {
		lo[l] = acc[l] + acc[4+l]
	}
	if t := len(row) - i; t > 0 {
		var f [lanes]float32
		for l := range t {
			f[l] = exp(row[i+l])
			out[i+l] = float16.Fromfloat32(f[l]).Float32()
		}
		hi := f[:]
		if t&4 != 0 {
			for l := range 4 {
				lo[l] += hi[l]
			}
			hi = hi[4:]
		}
		if t&2 != 0 {
			lo[0] += hi[0]
			lo[1] += hi[1]
			hi = hi[2:]
		}
		if t&1 != 0 {
			lo[0] += hi[0]
		}
	}
	a, b := lo[0]+lo[2], lo[1]+lo[3]
	return a + b
}

// tanhF16 is xnn_f16_f32acc_vtanh_ukernel__avx512f_rational_5_4_div: x clamped to ±4.5 (bound
// first, so NaN stays NaN), then the odd 5/4 rational in fp32 FMAs and one division.
func tanhF16(x float32) float32 {
	const a3, a5, b2, b4 = float32(1.0632324219e-01), float32(8.1062316895e-04), float32(4.3945312500e-01), float32(1.4091491699e-02)
	x = x86Max(-4.5, x86Min(4.5, x))
	x2 := x * x
	p := fma32(x2, fma32(x2, a5, a3), 1) * x
	q := fma32(x2, fma32(x2, b4, b2), 1)
	return p / q
}

// sigmoidF16 is xnn_f16_vsigmoid_ukernel__avx2_rr1_p2_rcp in fp32: e = exp(-|x|) by the rr1-p2
// polynomial, e/(e+1) (XNNPACK multiplies by RCPPS's 12-bit reciprocal, which is the CPU's own
// table; etgo divides, so an output can differ from the official one by an fp16 ulp), 0 below
// the denormal cutoff, 1 - f for positive x.
func sigmoidF16(x float32) float32 {
	const (
		magic     = float32(0x1.8000FEp23)
		log2e     = float32(0x1.715476p0)
		minusLn2  = float32(-0x1.62E43p-1)
		c2        = float32(0x1.FF3A32p-2)
		c1        = float32(0x1.039E10p+0)
		denormCut = float32(-0x1.368000p+3)
	)
	z := math.Float32frombits(math.Float32bits(x) | 0x80000000)
	n := fma32(z, log2e, magic)
	s := math.Float32frombits(math.Float32bits(n) << 23)
	n -= magic
	t := fma32(n, minusLn2, z)
	pp := fma32(c2, t, c1)
	t *= s
	e := fma32(t, pp, s)
	f := e / (e + 1)
	if z < denormCut {
		f = 0
	}
	if !math.Signbit(float64(x)) { // (BLENDVPS on the sign bit: +0 and positive NaN take 1 - f)
		f = 1 - f
	}
	return f
}

// hardswishF16 is xnn_f16_vhswish_ukernel__f16c: a = fp16(x + 3) clamped to [0, 6] as int16
// bit patterns (a negative number, or a negative NaN, is below 0; a positive NaN above 6), then
// fp16(a · fp16(x · fp16(1/6))).
func hardswishF16(x float32) float32 {
	const sixth = float32(0x1.554000p-3)
	a := int16(float16.Fromfloat32(x + 3).Bits())
	a = min(max(a, 0), 0x4600)
	x6 := float16.Fromfloat32(x * sixth).Float32()
	return float16.Frombits(uint16(a)).Float32() * x6
}

// unaryF16 runs f on every element (the output rounded after the node, roundF16Outputs).
func unaryF16(f func(float32) float32) runFunc {
	return func(p *plan, n *xnngraph.Node) error {
		x, err := p.in(n.Inputs[0])
		if err != nil {
			return err
		}
		y := p.out(n.Outputs[0], x.dims)
		for i, v := range x.data[:x.numel()] {
			y.data[i] = f(v)
		}
		return nil
	}
}

// f16Operator is the profiling name of a node with an fp16 output, as XNNPACK names its f16
// operators: the fp32 name with F16 for F32 ("Fully Connected (NC, F16) GEMM") and X16 for the
// 32-bit moves ("Transpose (ND, X16)").
func (p *plan) f16Operator(n *xnngraph.Node, name string) string {
	if len(n.Outputs) == 0 || n.Outputs[0] == xnngraph.InvalidID || !p.f16[p.index[n.Outputs[0]]] {
		return name
	}
	return strings.NewReplacer("F32", "F16", "X32", "X16").Replace(name)
}
