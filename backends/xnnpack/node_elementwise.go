package xnnpack

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// The elementwise family: unary operations and activations, binary operations (numpy
// broadcasting), PReLU and softmax, in fp32; quantized, conversion between fp32 and qint8,
// add, subtract and multiply in XNNPACK's integer arithmetic, and copy and clamp on codes.

func init() {
	// Clamp, copy and fp32 convert move the values (the range is applied by clampOutput): one
	// copy, not a call per element (a ViT's clamps and copies were 8% of its run).
	identity := unaryOpVec(func(dst, src []float32) { copy(dst, src) })
	for op, run := range map[schema.XNodeUnion]runFunc{
		schema.XNodeUnionXNNAbs:                  unaryOp(func(x float32) float32 { return float32(math.Abs(float64(x))) }),
		schema.XNodeUnionXNNNegate:               unaryOp(func(x float32) float32 { return -x }),
		schema.XNodeUnionXNNSquare:               unaryOp(func(x float32) float32 { return x * x }),
		schema.XNodeUnionXNNSquareRoot:           unaryOp(xnnSqrt),
		schema.XNodeUnionXNNReciprocalSquareRoot: unaryOp(xnnRsqrt),
		schema.XNodeUnionXNNFloor:                unaryOp(func(x float32) float32 { return float32(math.Floor(float64(x))) }),
		schema.XNodeUnionXNNCeiling:              unaryOp(func(x float32) float32 { return float32(math.Ceil(float64(x))) }),
		schema.XNodeUnionXNNExp:                  unaryOp(xnnExp),
		schema.XNodeUnionXNNLog:                  unaryOp(xnnLog),
		schema.XNodeUnionXNNSin:                  unaryOp(func(x float32) float32 { return float32(math.Sin(float64(x))) }),
		schema.XNodeUnionXNNCos:                  unaryOp(func(x float32) float32 { return float32(math.Cos(float64(x))) }),
		schema.XNodeUnionXNNTanh:                 unaryOp(func(x float32) float32 { return float32(math.Tanh(float64(x))) }),
		schema.XNodeUnionXNNSigmoid:              unaryOpVec(gemm.Sigmoid),
		schema.XNodeUnionXNNGelu:                 unaryOpVec(gemm.Gelu),
		schema.XNodeUnionXNNELU:                  elu,
		schema.XNodeUnionXNNLeakyReLU:            leakyReLU,
		schema.XNodeUnionXNNPReLU:                prelu,
		schema.XNodeUnionXNNSoftmax:              softmax,
		schema.XNodeUnionXNNDiv:                  binaryOpVec(func(x, y float32) float32 { return x / y }, divVec, false),
		schema.XNodeUnionXNNMinimum:              minMaxOp(minps),
		schema.XNodeUnionXNNMaximum:              minMaxOp(maxps),
	} {
		registerNode(op, nodeKernel{run: run, operator: elementwiseOperators[op]})
	}
	// Hardswish ends most of MobileNetV3's layers: a producer that takesActivation applies it
	// to each chunk it computes, while the chunk is in cache.
	registerNode(schema.XNodeUnionXNNHardswish, nodeKernel{run: unaryOpVec(gemm.Hardswish), operator: "HardSwish (NC)",
		activation: func(d []float32) { gemm.Hardswish(d, d) }})
	registerNode(schema.XNodeUnionXNNClamp, nodeKernel{run: identity, quant: quantMove(copyCodes), operator: "Clamp (NC)"}) // the range: clampOutput, quantMove
	registerNode(schema.XNodeUnionXNNCopy, nodeKernel{run: identity, quant: quantMove(copyCodes), operator: "Copy (NC, X32)"})
	registerNode(schema.XNodeUnionXNNConvert, nodeKernel{run: identity, quant: quantConvert}) // fp32 to fp32 only
	registerNode(schema.XNodeUnionXNNAdd, nodeKernel{run: binaryOpVec(func(x, y float32) float32 { return x + y }, gemm.Add, true),
		quant: quantAdd(false), operator: "Add (ND)"})
	registerNode(schema.XNodeUnionXNNSubtract, nodeKernel{run: binaryOpVec(func(x, y float32) float32 { return x - y }, subVec, false), quant: quantAdd(true),
		operator: "Subtract (ND)"})
	registerNode(schema.XNodeUnionXNNMultiply, nodeKernel{run: binaryOpVec(func(x, y float32) float32 { return x * y }, gemm.Mul, true),
		quant: quantMultiply, operator: "Multiply (ND)"})
}

// elementwiseOperators are XNNPACK's profiling names of the operators these nodes become (the
// official runtime's ETDump has the fp32 binary operators as "(ND)", the unary ones as "(NC)").
var elementwiseOperators = map[schema.XNodeUnion]string{
	schema.XNodeUnionXNNAbs: "Abs (NC)", schema.XNodeUnionXNNNegate: "Negate (NC)", schema.XNodeUnionXNNSquare: "Square (NC)",
	schema.XNodeUnionXNNSquareRoot: "Square Root (NC)", schema.XNodeUnionXNNReciprocalSquareRoot: "Reciprocal Square Root (NC)",
	schema.XNodeUnionXNNFloor: "Floor (NC)", schema.XNodeUnionXNNCeiling: "Ceiling (NC)", schema.XNodeUnionXNNExp: "Exp (NC)",
	schema.XNodeUnionXNNLog: "Log (NC)", schema.XNodeUnionXNNSin: "Sine (NC)", schema.XNodeUnionXNNCos: "Cosine (NC)",
	schema.XNodeUnionXNNTanh: "Tanh (NC)", schema.XNodeUnionXNNSigmoid: "Sigmoid (NC)", schema.XNodeUnionXNNGelu: "GELU (NC)",
	schema.XNodeUnionXNNELU: "ELU (NC)", schema.XNodeUnionXNNLeakyReLU: "Leaky ReLU (NC)", schema.XNodeUnionXNNPReLU: "PReLU (NC)",
	schema.XNodeUnionXNNSoftmax: "Softmax (NC, F32)", schema.XNodeUnionXNNDiv: "Divide (ND)",
	schema.XNodeUnionXNNMinimum: "Minimum (ND)", schema.XNodeUnionXNNMaximum: "Maximum (ND)",
}

// copyCodes copies a qint8 operand's codes.
func copyCodes(p *plan, n *xnngraph.Node) error {
	x, xd, err := inOf[int8](p, n.Inputs[0])
	if err != nil {
		return err
	}
	_, yd := outOf[int8](p, n.Outputs[0], x.dims)
	copy(yd, xd)
	return nil
}

func elu(p *plan, n *xnngraph.Node) error {
	a := n.Alpha
	return unaryOp(func(x float32) float32 {
		if x > 0 {
			return x
		}
		return a * float32(math.Expm1(float64(x)))
	})(p, n)
}

func leakyReLU(p *plan, n *xnngraph.Node) error {
	s := n.Alpha
	return unaryOp(func(x float32) float32 {
		if x >= 0 {
			return x
		}
		return s * x
	})(p, n)
}

// quantConvert is XNNPACK's quantize (fp32 -> qint8) or dequantize (qint8 -> fp32).
func quantConvert(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
	x, y := p.qof(n.Inputs[0]), p.qof(n.Outputs[0])
	switch {
	case x == nil && y != nil && y.dtype == schema.XNNDatatypexnn_datatype_qdint8:
		rowDims := y.rowDims
		switch {
		case p.readByFullyConnectedOnly(n.Outputs[0]):
			// XNNPACK inlines this quantization into the layers' input packing, which
			// quantizes rows of the last dim whatever num_nonbatch_dims says (the official
			// runtime gives the same outputs with 0 as with 1).
			rowDims = 1
		case p.readByConvAsFullyConnected(n.Outputs[0]):
			// xnn_define_convolution_2d sets num_nonbatch_dims to 1 on the qdint8 value of a
			// convolution it defines as a fully connected layer: the value is shared, so the
			// Convert quantizes per pixel for every reader, and the other convolutions reading
			// it take the first rows' parameters per image (qdconv), as the official runtime
			// does.
			rowDims = 1
		}
		return quantizeDynamic(rowDims), nil
	case x == nil && isQint8(y):
		inv, zp := 1/y.scale, y.zp // the reciprocal in fp32, as XNNPACK's quantize kernels use it
		return func(p *plan, n *xnngraph.Node) error {
			in, err := p.in(n.Inputs[0])
			if err != nil {
				return err
			}
			_, out := outOf[int8](p, n.Outputs[0], in.dims)
			src := in.data[:len(out)]
			p.elementwise(len(out), func(lo, hi int) { gemm.QuantizeQ8(out[lo:hi], src[lo:hi], inv, zp) }) // (quantize, vectorized)
			return nil
		}, nil
	case isQint8(x) && y == nil:
		scale, zp := x.scale, x.zp
		return func(p *plan, n *xnngraph.Node) error {
			in, codes, err := inOf[int8](p, n.Inputs[0])
			if err != nil {
				return err
			}
			out := p.out(n.Outputs[0], in.dims)
			src := codes[:len(out.data)]
			p.elementwise(len(src), func(lo, hi int) { gemm.DequantizeQ8(out.data[lo:hi], src[lo:hi], scale, zp) }) // (dequantize, vectorized)
			return nil
		}, nil
	}
	return nil, p.unsupportedQuant(k, n)
}

// quantAdd is the qint8 a + b, or a - b with subtract, in XNNPACK's fixed-point form (qaddParams).
func quantAdd(subtract bool) func(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
	return func(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
		x, b, y := p.qof(n.Inputs[0]), p.qof(n.Inputs[1]), p.qof(n.Outputs[0])
		if !isQint8(x) || !isQint8(b) || !isQint8(y) {
			return nil, p.unsupportedQuant(k, n)
		}
		lo, hi := outputRange(n, y)
		qa, err := newQAdd(x, b, y, lo, hi, subtract)
		if err != nil {
			return nil, fmt.Errorf("node %d (%s): %w", k, n.OpName(), err)
		}
		return qa.run(binaryOp(func(a, b int8) int8 { return int8(qa.add(int32(a), int32(b))) })), nil // (add clamps to the codes' range)
	}
}

// quantMultiply is XNNPACK's qint8 product: (a - a_zp)·(b - b_zp) in int32, requantized with
// the fp32 scale (a_scale·b_scale)/y_scale, which it accepts in [2^-16, 2^8).
func quantMultiply(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
	x, b, y := p.qof(n.Inputs[0]), p.qof(n.Inputs[1]), p.qof(n.Outputs[0])
	if !isQint8(x) || !isQint8(b) || !isQint8(y) {
		return nil, p.unsupportedQuant(k, n)
	}
	scale := x.scale * b.scale / y.scale
	if !(scale >= 0x1p-16 && scale < 0x1p8) {
		return nil, fmt.Errorf("%w: node %d (%s): qint8 product scale ratio %g (XNNPACK supports [2^-16, 2^8))", ErrUnsupported, k, n.OpName(), scale)
	}
	lo, hi := outputRange(n, y)
	azp, bzp, yzp := x.zp, b.zp, y.zp
	return quantMulRun(&gemm.QMul{AZP: azp, BZP: bzp, Scale: scale, ZP: yzp, Lo: lo, Hi: hi}, binaryOp(func(a, b int8) int8 {
		return int8(requantize((int32(a)-azp)*(int32(b)-bzp), scale, yzp, lo, hi))
	})), nil
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
func minMaxOp(f func(x, y float32) float32) runFunc {
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

// elementwiseGrain is the element count below which an elementwise op runs on one thread: a
// parallel region's hand-off costs about as much as a few thousand elements' work.
const elementwiseGrain = 1 << 14

// unaryOpVec is an elementwise op with a slice kernel, split across threads when large.
func unaryOpVec(f func(dst, src []float32)) runFunc {
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
// (residual adds), one operand broadcast along the leading dimensions of the other (a
// squeeze-and-excitation scale [N,1,1,C] times [N,H,W,C]), and any broadcast with long trailing
// runs (broadcastRuns: [N,C,1,1] times [N,C,H,W]). commutative says the operands may be swapped
// to reach the second form.
func binaryOpVec(f func(x, y float32) float32, vec func(dst, a, b []float32), commutative bool) runFunc {
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
		if b.numel() == 1 && equalDims(a.dims, dims) {
			// A scalar operand (h·0.1): the vector kernel against a block of copies of it.
			var sb [elementwiseScalarBlock]float32
			for i := range sb {
				sb[i] = b.data[0]
			}
			y := p.out(n.Outputs[0], dims)
			p.elementwise(len(y.data), func(lo, hi int) {
				for i := lo; i < hi; i += len(sb) {
					e := min(i+len(sb), hi)
					vec(y.data[i:e], a.data[i:e], sb[:e-i])
				}
			})
			return nil
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
		if r, ok := runsOf(a.dims, b.dims, dims); ok {
			y := p.out(n.Outputs[0], dims)
			rows := r.rows()
			grain := max(1, elementwiseGrain/r.run)
			if rows < 2*grain {
				grain = rows
			}
			p.parallel(rows, grain, 4*len(y.data), func(lo, hi int) { r.apply(vec, y.data, a.data, b.data, lo, hi) })
			return nil
		}
		return slow(p, n)
	}
}

// elementwiseScalarBlock is the length of the block of copies a scalar operand is expanded to.
const elementwiseScalarBlock = 256

func unaryOp(f func(float32) float32) runFunc {
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

// binaryOp is f elementwise with numpy broadcasting, on fp32 values or (quantized forms with an
// integer body) on qint8 codes.
func binaryOp[T elem](f func(x, y T) T) runFunc {
	return func(p *plan, n *xnngraph.Node) error {
		a, ad, err := inOf[T](p, n.Inputs[0])
		if err != nil {
			return err
		}
		b, bd, err := inOf[T](p, n.Inputs[1])
		if err != nil {
			return err
		}
		dims, err := xnngraph.BroadcastDims(a.dims, b.dims)
		if err != nil {
			return err
		}
		_, y := outOf[T](p, n.Outputs[0], dims)
		if equalDims(a.dims, dims) && equalDims(b.dims, dims) {
			for i := range y {
				y[i] = f(ad[i], bd[i])
			}
			return nil
		}
		if equalDims(a.dims, dims) && b.numel() == 1 {
			s := bd[0]
			for i := range y {
				y[i] = f(ad[i], s)
			}
			return nil
		}
		sa, sb := broadcastStrides(a.dims, dims), broadcastStrides(b.dims, dims)
		idx := make([]int, len(dims))
		oa, ob := 0, 0
		for i := range y {
			y[i] = f(ad[oa], bd[ob])
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
	if c == 0 {
		return nil
	}
	rows := x.numel() / c
	// Rows are independent: split them across threads (attention's softmax over heads ×
	// tokens rows was a serial tenth of a ViT's run).
	p.parallel(rows, 1, 8*rows*c, func(r0, r1 int) {
		for r := r0 * c; r < r1*c; r += c {
			row, out := x.data[r:r+c], y.data[r:r+c]
			m := row[0]
			for _, v := range row {
				m = max(m, v)
			}
			// XNNPACK's softmax: exp(x - max) summed in float32, then scaled by 1/sum.
			scale := 1 / gemm.ExpMinusMax(out, row, m)
			gemm.Scale(out, scale)
		}
	})
	return nil
}
