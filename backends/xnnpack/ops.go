package xnnpack

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// ops maps each supported node type to its implementation. Layout is the graph's: convolution
// and pooling values are NHWC, filters OHWI ([out, kh, kw, in/groups]), depthwise filters
// [1, kh, kw, channels].
var ops = map[schema.XNodeUnion]func(p *plan, n *xnngraph.Node) error{
	schema.XNodeUnionXNNAdd:        binaryOpVec(func(x, y float32) float32 { return x + y }, gemm.Add, true),
	schema.XNodeUnionXNNSubtract:   binaryOp(func(x, y float32) float32 { return x - y }),
	schema.XNodeUnionXNNMultiply:   binaryOpVec(func(x, y float32) float32 { return x * y }, gemm.Mul, true),
	schema.XNodeUnionXNNDiv:        binaryOp(func(x, y float32) float32 { return x / y }),
	schema.XNodeUnionXNNMinimum:    minMaxOp(minps),
	schema.XNodeUnionXNNMaximum:    minMaxOp(maxps),
	schema.XNodeUnionXNNClamp:      unaryOp(func(x float32) float32 { return x }), // range applied by clampOutput
	schema.XNodeUnionXNNCopy:       unaryOp(func(x float32) float32 { return x }),
	schema.XNodeUnionXNNConvert:    unaryOp(func(x float32) float32 { return x }), // fp32 to fp32 only
	schema.XNodeUnionXNNAbs:        unaryOp(func(x float32) float32 { return float32(math.Abs(float64(x))) }),
	schema.XNodeUnionXNNNegate:     unaryOp(func(x float32) float32 { return -x }),
	schema.XNodeUnionXNNSquare:     unaryOp(func(x float32) float32 { return x * x }),
	schema.XNodeUnionXNNSquareRoot: unaryOp(xnnSqrt),
	schema.XNodeUnionXNNReciprocalSquareRoot: unaryOp(func(x float32) float32 {
		return xnnRsqrt(x)
	}),
	schema.XNodeUnionXNNFloor:     unaryOp(func(x float32) float32 { return float32(math.Floor(float64(x))) }),
	schema.XNodeUnionXNNCeiling:   unaryOp(func(x float32) float32 { return float32(math.Ceil(float64(x))) }),
	schema.XNodeUnionXNNExp:       unaryOp(xnnExp),
	schema.XNodeUnionXNNLog:       unaryOp(xnnLog),
	schema.XNodeUnionXNNSin:       unaryOp(func(x float32) float32 { return float32(math.Sin(float64(x))) }),
	schema.XNodeUnionXNNCos:       unaryOp(func(x float32) float32 { return float32(math.Cos(float64(x))) }),
	schema.XNodeUnionXNNTanh:      unaryOp(func(x float32) float32 { return float32(math.Tanh(float64(x))) }),
	schema.XNodeUnionXNNSigmoid:   unaryOpVec(gemm.Sigmoid),
	schema.XNodeUnionXNNGelu:      unaryOpVec(gemm.Gelu),
	schema.XNodeUnionXNNHardswish: unaryOpVec(gemm.Hardswish),
	schema.XNodeUnionXNNELU: func(p *plan, n *xnngraph.Node) error {
		a := n.Alpha
		return unaryOp(func(x float32) float32 {
			if x > 0 {
				return x
			}
			return a * float32(math.Expm1(float64(x)))
		})(p, n)
	},
	schema.XNodeUnionXNNLeakyReLU: func(p *plan, n *xnngraph.Node) error {
		s := n.Alpha
		return unaryOp(func(x float32) float32 {
			if x >= 0 {
				return x
			}
			return s * x
		})(p, n)
	},
	schema.XNodeUnionXNNPReLU:                  prelu,
	schema.XNodeUnionXNNSoftmax:                softmax,
	schema.XNodeUnionXNNFullyConnected:         fullyConnected,
	schema.XNodeUnionXNNBatchMatrixMultiply:    batchMatMul,
	schema.XNodeUnionXNNConv2d:                 conv2d,
	schema.XNodeUnionXNNDepthwiseConv2d:        depthwiseConv2d,
	schema.XNodeUnionXNNConvTranspose2d:        convTranspose2d,
	schema.XNodeUnionXNNMaxPooling2d:           pool2d(true),
	schema.XNodeUnionXNNAvgPooling2d:           pool2d(false),
	schema.XNodeUnionXNNGlobalAvgPooling2d:     globalAvgPool,
	schema.XNodeUnionXNNStaticTranspose:        transpose,
	schema.XNodeUnionXNNStaticReshape:          reshape,
	schema.XNodeUnionXNNStaticSlice:            slice,
	schema.XNodeUnionXNNStaticConstantPad:      constantPad,
	schema.XNodeUnionXNNConcatenate2:           concat,
	schema.XNodeUnionXNNConcatenate3:           concat,
	schema.XNodeUnionXNNConcatenate4:           concat,
	schema.XNodeUnionXNNConcatenate5:           concat,
	schema.XNodeUnionXNNStaticResizeBilinear2D: resizeBilinear,
}

// maxps and minps are x86 MAXPS and MINPS, in which XNNPACK's maximum and minimum are written:
// the first operand when it compares greater (smaller), else the second, so the second whenever
// either is NaN. PyTorch and the portable kernels return NaN for a NaN on either side.
func maxps(x, y float32) float32 {
	if x > y {
		return x
	}
	return y
}

func minps(x, y float32) float32 {
	if x < y {
		return x
	}
	return y
}

// minMaxOp is XNNPACK's maximum or minimum: f(a, b) elementwise (f is maxps or minps, so which
// operand is first decides the NaN case). With a one-element operand XNNPACK runs its
// scalar-operand kernel with the scalar second, whichever input it was (the official runtime:
// maximum(1.5, NaN) is 1.5, and so is maximum(NaN, 1.5) when the 1.5 is the broadcast one).
func minMaxOp(f func(x, y float32) float32) func(p *plan, n *xnngraph.Node) error {
	plain := binaryOp(f)
	swapped := binaryOp(func(x, y float32) float32 { return f(y, x) })
	return func(p *plan, n *xnngraph.Node) error {
		a, err := p.in(n.Inputs[0])
		if err != nil {
			return err
		}
		b, err := p.in(n.Inputs[1])
		if err != nil {
			return err
		}
		if a.numel() == 1 && b.numel() != 1 {
			return swapped(p, n)
		}
		return plain(p, n)
	}
}

// XNNPACK's square root is x·rsqrt(x) refined by Newton steps, with 0 for ±0: +Inf·0 makes
// sqrt(+Inf) NaN in the official runtime (PyTorch: +Inf).
func xnnSqrt(x float32) float32 {
	if math.IsInf(float64(x), 1) {
		return float32(math.NaN())
	}
	return float32(math.Sqrt(float64(x)))
}

// XNNPACK's reciprocal square root refines rsqrt(x) by Newton steps, which turn rsqrt(±0) = Inf
// into 0·Inf = NaN (PyTorch: ±Inf); +Inf gives 0.
func xnnRsqrt(x float32) float32 {
	if x == 0 {
		return float32(math.NaN())
	}
	return float32(1 / math.Sqrt(float64(x)))
}

// XNNPACK's exp clamps x·log2(e) to [-127, 128] with MAXPS/MINPS before a rational
// approximation of 2^r times 2^round(...) set in the exponent field: a NaN clamps to -127 and
// gives 0, and from x·log2(e) ≥ 127.5 (x ≥ 88.38) the exponent rounds to 128, +Inf.
func xnnExp(x float32) float32 {
	if x != x {
		return 0
	}
	if x*float32(math.Log2E) >= 127.5 {
		return float32(math.Inf(1))
	}
	return float32(math.Exp(float64(x)))
}

// XNNPACK's log multiplies x by sqrt(2) (1.4142134 in float32) before taking its exponent and
// mantissa apart: above MaxFloat32/sqrt(2) (about 2.4e38) the product is +Inf, and so is the log.
func xnnLog(x float32) float32 {
	if x > 0 && math.IsInf(float64(x*1.4142134190), 1) {
		return float32(math.Inf(1))
	}
	return float32(math.Log(float64(x)))
}

func errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", xnngraph.ErrInvalidBlob, fmt.Sprintf(format, args...))
}

// in returns an operand that must hold data for its dims (a value computed earlier, a
// constant or an input).
func (p *plan) in(id uint32) (*tensor, error) {
	t := p.val(id)
	if len(t.data) < t.numel() {
		return nil, errorf("value %d is read before it is computed", id)
	}
	return t, nil
}

// elementwiseGrain is the element count below which an elementwise op runs on one thread: a
// parallel region's hand-off costs about as much as a few thousand elements' work.
const elementwiseGrain = 1 << 14

// unaryOpVec is an elementwise op with a slice kernel, split across threads when large.
func unaryOpVec(f func(dst, src []float32)) func(p *plan, n *xnngraph.Node) error {
	return func(p *plan, n *xnngraph.Node) error {
		x, err := p.in(n.Inputs[0])
		if err != nil {
			return err
		}
		y := p.out(n.Outputs[0], x.dims)
		p.elementwise(len(y.data), func(lo, hi int) { f(y.data[lo:hi], x.data[lo:hi]) })
		return nil
	}
}

// elementwise runs f over [0, n) in chunks, in parallel when n is large enough to pay for it.
func (p *plan) elementwise(n int, f func(lo, hi int)) {
	if n < 2*elementwiseGrain || p.threads <= 1 {
		f(0, n)
		return
	}
	p.parallel(n, elementwiseGrain/4, 4*n, f)
}

// binaryOpVec is binaryOp with a slice kernel for the shapes that dominate CNNs: equal shapes
// (residual adds) and one operand broadcast along the leading dimensions of the other (a
// squeeze-and-excitation scale [N,1,1,C] times [N,H,W,C]). commutative says the operands may
// be swapped to reach the second form.
func binaryOpVec(f func(x, y float32) float32, vec func(dst, a, b []float32), commutative bool) func(p *plan, n *xnngraph.Node) error {
	slow := binaryOp(f)
	return func(p *plan, n *xnngraph.Node) error {
		a, err := p.in(n.Inputs[0])
		if err != nil {
			return err
		}
		b, err := p.in(n.Inputs[1])
		if err != nil {
			return err
		}
		var dimsBuf [8]int
		dims, err := xnngraph.BroadcastDimsTo(dimsBuf[:], a.dims, b.dims)
		if err != nil {
			return err
		}
		if equalDims(a.dims, dims) && equalDims(b.dims, dims) {
			y := p.out(n.Outputs[0], dims)
			p.elementwise(len(y.data), func(lo, hi int) { vec(y.data[lo:hi], a.data[lo:hi], b.data[lo:hi]) })
			return nil
		}
		if commutative && equalDims(b.dims, dims) {
			a, b = b, a
		}
		if inner := xnngraph.TrailingBroadcast(b.dims, dims); equalDims(a.dims, dims) && inner >= 8 {
			y := p.out(n.Outputs[0], dims)
			bv := b.data[:inner]
			rows := len(y.data) / inner
			grain := max(1, elementwiseGrain/inner)
			if rows < 2*grain {
				grain = rows
			}
			p.parallel(rows, grain, 4*len(y.data), func(lo, hi int) {
				for r := lo; r < hi; r++ {
					vec(y.data[r*inner:(r+1)*inner], a.data[r*inner:], bv)
				}
			})
			return nil
		}
		return slow(p, n)
	}
}

func unaryOp(f func(float32) float32) func(p *plan, n *xnngraph.Node) error {
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

// broadcastStrides returns element strides of shape aligned to out, 0 where it broadcasts.
func broadcastStrides(shape, out []int) []int {
	s := make([]int, len(out))
	step := 1
	for i := len(shape) - 1; i >= 0; i-- {
		k := i + len(out) - len(shape)
		if shape[i] != 1 {
			s[k] = step
		}
		step *= shape[i]
	}
	return s
}

func binaryOp(f func(x, y float32) float32) func(p *plan, n *xnngraph.Node) error {
	return func(p *plan, n *xnngraph.Node) error {
		a, err := p.in(n.Inputs[0])
		if err != nil {
			return err
		}
		b, err := p.in(n.Inputs[1])
		if err != nil {
			return err
		}
		dims, err := xnngraph.BroadcastDims(a.dims, b.dims)
		if err != nil {
			return err
		}
		y := p.out(n.Outputs[0], dims)
		if equalDims(a.dims, dims) && equalDims(b.dims, dims) {
			for i := range y.data {
				y.data[i] = f(a.data[i], b.data[i])
			}
			return nil
		}
		if equalDims(a.dims, dims) && b.numel() == 1 {
			s := b.data[0]
			for i := range y.data {
				y.data[i] = f(a.data[i], s)
			}
			return nil
		}
		sa, sb := broadcastStrides(a.dims, dims), broadcastStrides(b.dims, dims)
		idx := make([]int, len(dims))
		oa, ob := 0, 0
		for i := range y.data {
			y.data[i] = f(a.data[oa], b.data[ob])
			for d := len(idx) - 1; d >= 0; d-- {
				idx[d]++
				oa += sa[d]
				ob += sb[d]
				if idx[d] < dims[d] {
					break
				}
				oa -= idx[d] * sa[d]
				ob -= idx[d] * sb[d]
				idx[d] = 0
			}
		}
		return nil
	}
}

func equalDims(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// prelu: y = x >= 0 ? x : slope*x, the slope broadcast over the last (channel) dimension.
func prelu(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	s, err := p.in(n.Inputs[1])
	if err != nil {
		return err
	}
	y := p.out(n.Outputs[0], x.dims)
	c := s.numel()
	if c == 0 || x.numel()%c != 0 {
		return errorf("prelu slope of %d values does not divide the input %v", c, x.dims)
	}
	for i, v := range x.data[:x.numel()] {
		if v < 0 {
			v *= s.data[i%c]
		}
		y.data[i] = v
	}
	return nil
}

// softmax over the last dimension.
func softmax(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	y := p.out(n.Outputs[0], x.dims)
	if len(x.dims) == 0 {
		return errorf("softmax of a scalar")
	}
	c := x.dims[len(x.dims)-1]
	for r := 0; r+c <= x.numel() && c > 0; r += c {
		row, out := x.data[r:r+c], y.data[r:r+c]
		m := row[0]
		for _, v := range row {
			m = max(m, v)
		}
		// XNNPACK's softmax: exp(x - max) summed in float32, then scaled by 1/sum.
		scale := 1 / gemm.ExpMinusMax(out, row, m)
		gemm.Scale(out, scale)
	}
	return nil
}

// fullyConnected: y[..., o] = sum_i x[..., i] * w[o, i] + b[o]; w is [in, out] when the
// transpose-weights flag is set.
func fullyConnected(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	w, err := p.in(n.Inputs[1])
	if err != nil {
		return err
	}
	if len(w.dims) != 2 || len(x.dims) == 0 {
		return errorf("fully connected needs a 2-d filter, got %v for input %v", w.dims, x.dims)
	}
	oc, ic := w.dims[0], w.dims[1]
	if n.Flags&xnngraph.FlagTransposeWeights != 0 {
		oc, ic = ic, oc
	}
	if x.dims[len(x.dims)-1] != ic {
		return errorf("input %v does not end in the filter's %d input channels", x.dims, ic)
	}
	var bias []float32
	if n.Inputs[2] != xnngraph.InvalidID {
		b, err := p.in(n.Inputs[2])
		if err != nil {
			return err
		}
		if b.numel() != oc {
			return errorf("bias of %d values for %d output channels", b.numel(), oc)
		}
		bias = b.data
	}
	dims := append(append([]int(nil), x.dims[:len(x.dims)-1]...), oc)
	y := p.out(n.Outputs[0], dims)
	rows := y.numel() / max(oc, 1)
	var pb *gemm.PackedB
	if pw, ok := p.packed[n]; ok {
		pb = pw[0]
	} else {
		pb = packFC(w.data, w.dims[0], w.dims[1], n.Flags)
	}
	p.gemmBias(pb, rows, x.data, ic, bias, y.data, oc, n.OutputMin, n.OutputMax, p.act(n)) // bias and range fused into the store
	return nil
}

// gemmBias runs pb.GemmBias across the plan's threads. Threads split by row tiles when A is the
// larger operand (early layers: many pixels, few channels); when the weights are larger (a 7x7
// layer, an M=1 classifier) they split by column panels, so each thread reads only its part of
// the weights and the small A is shared.
func (p *plan) gemmBias(pb *gemm.PackedB, m int, a []float32, lda int, bias, c []float32, ldc int, lo, hi float32, act func([]float32)) {
	tile := gemm.TileRows()
	byRows := m*pb.K >= pb.K*pb.N && m >= 2*p.threads*tile
	// Reading the weights counts too: an M=1 layer streams them from L3, and two cores pull
	// them about twice as fast as one.
	work := m*pb.K*pb.N + 4*pb.K*pb.N
	if p.threads <= 1 || byRows || pb.Panels() < 2 {
		p.parallel(m, tile, work, func(r0, r1 int) {
			pb.GemmBias(r1-r0, a[r0*lda:], lda, bias, c[r0*ldc:], ldc, lo, hi)
			if act != nil { // rows just written, still in cache
				actRows(act, c, r0, r1, ldc, pb.N)
			}
		})
		return
	}
	p.parallel(pb.Panels(), 1, work, func(j0, j1 int) {
		pb.GemmBiasPanels(m, a, lda, bias, c, ldc, lo, hi, j0, j1)
	})
	if act != nil { // few rows: one pass over the small result
		actRows(act, c, 0, m, ldc, pb.N)
	}
}

// actRows applies act to columns [0, n) of rows [r0, r1) of c (row stride ldc): in one call when
// the rows are contiguous, as a layer's output is.
func actRows(act func([]float32), c []float32, r0, r1, ldc, n int) {
	if r1 <= r0 {
		return
	}
	if ldc == n {
		act(c[r0*ldc : r1*ldc])
		return
	}
	for r := r0; r < r1; r++ {
		act(c[r*ldc : r*ldc+n])
	}
}

// batchMatMul: [..., m, k] x [..., k, n] (or [..., n, k] with the transpose flag), batch dims
// broadcast.
func batchMatMul(p *plan, n *xnngraph.Node) error {
	a, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	b, err := p.in(n.Inputs[1])
	if err != nil {
		return err
	}
	if len(a.dims) < 2 || len(b.dims) < 2 {
		return errorf("batch matmul of %v and %v", a.dims, b.dims)
	}
	m, k := a.dims[len(a.dims)-2], a.dims[len(a.dims)-1]
	kb, nn := b.dims[len(b.dims)-2], b.dims[len(b.dims)-1]
	trans := n.Flags&xnngraph.FlagTransposeWeights != 0
	if trans {
		kb, nn = nn, kb
	}
	if kb != k {
		return errorf("batch matmul inner dimensions %d and %d differ", k, kb)
	}
	batch, err := xnngraph.BroadcastDims(a.dims[:len(a.dims)-2], b.dims[:len(b.dims)-2])
	if err != nil {
		return err
	}
	y := p.out(n.Outputs[0], append(append([]int(nil), batch...), m, nn))
	sa, sb := broadcastStrides(a.dims[:len(a.dims)-2], batch), broadcastStrides(b.dims[:len(b.dims)-2], batch)
	nb := 1
	for _, d := range batch {
		nb *= d
	}
	idx := make([]int, len(batch))
	for bi := 0; bi < nb; bi++ {
		oa, ob := 0, 0
		for d, x := range idx {
			oa += x * sa[d]
			ob += x * sb[d]
		}
		am := a.data[oa*m*k : (oa+1)*m*k]
		bm := b.data[ob*k*nn : (ob+1)*k*nn]
		cm := y.data[bi*m*nn : (bi+1)*m*nn]
		if trans {
			bm = transpose2(bm, nn, k)
		}
		// Packed once per product and run on the fully connected layers' microkernels (the
		// portable triple loop was 29% of a DeiT-tiny's run, in its attention products).
		pb, err := gemm.PackB(bm, k, nn, nn)
		if err != nil {
			return err
		}
		pb.GemmBias(m, am, k, nil, cm, nn, float32(math.Inf(-1)), float32(math.Inf(1)))
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < batch[d] {
				break
			}
			idx[d] = 0
		}
	}
	return nil
}
