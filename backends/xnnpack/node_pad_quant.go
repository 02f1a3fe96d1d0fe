package xnnpack

import (
	"fmt"

	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
)

// A quantized constant pad (qint8 in and out): XNNPACK's subgraph requires the input's scale and
// zero point to equal the output's (xnn_subgraph_check_quantization_parameter_matches) and pads
// with the padding value quantized once when the node is defined, xnn_qs8_quantize(value,
// scale, zero point); the codes themselves are moved. ExecuTorch 1.5.1 writes such pads for a
// zero pad after a dequantize (its InsertPadQDQPass), but leaves the first of them reading the
// fp32 value, a pad from fp32 to qint8 that XNNPACK refuses and so does etgo
// (testdata/quant_refused/pad); testdata/quant/pad_qint8 is that program with the pad reading
// the qint8 value, as the pass intends, run by the official runtime.

// quantPad prepares a qint8 StaticConstantPad.
func quantPad(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
	x, y := p.qof(n.Inputs[0]), p.qof(n.Outputs[0])
	if !isQint8(x) || !isQint8(y) {
		var kinds []string
		for _, id := range []uint32{n.Inputs[0], n.Outputs[0]} {
			kinds = append(kinds, p.g.Values[p.index[id]].DType.String())
		}
		return nil, fmt.Errorf("%w: node %d (%s) pads %s into %s; XNNPACK pads one datatype, quantized as qint8 in and out", ErrUnsupported, k, n.OpName(), kinds[0], kinds[1])
	}
	if x.scale != y.scale || x.zp != y.zp {
		return nil, fmt.Errorf("%w: node %d (%s): input quantized as (%g, %d), output as (%g, %d); XNNPACK requires them equal", ErrUnsupported, k, n.OpName(), x.scale, x.zp, y.scale, y.zp)
	}
	code := int8(qs8Quantize(n.PadValue, y.scale, y.zp))
	return func(p *plan, n *xnngraph.Node) error {
		return padCodes(p, n, code)
	}, nil
}

// qs8Quantize is XNNPACK's xnn_qs8_quantize: lrintf(fminf(fmaxf(v/scale + zp, -128), 127)),
// where fmaxf and fminf ignore a NaN operand (a NaN value gives -128).
func qs8Quantize(v, scale float32, zp int32) int32 {
	q := v/scale + float32(zp)
	if q != q || q < -128 {
		q = -128
	}
	if q > 127 {
		q = 127
	}
	return int32(roundEven(q))
}

// padCodes is constantPad on codes.
func padCodes(p *plan, n *xnngraph.Node, code int8) error {
	x, xq, err := inOf[int8](p, n.Inputs[0])
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
	_, yq := outOf[int8](p, n.Outputs[0], dims)
	for i := range yq {
		yq[i] = code
	}
	if x.numel() == 0 {
		return nil
	}
	if r == 0 {
		yq[0] = xq[0]
		return nil
	}
	// Copy runs of the innermost dim, walking the outer indices.
	ystride := rowMajorStrides(dims)
	inner := x.dims[r-1]
	idx := make([]int, r)
	for i := 0; i < x.numel(); i += inner {
		off := 0
		for d, v := range idx {
			off += (v + int(n.PrePadding[d])) * ystride[d]
		}
		copy(yq[off:off+inner], xq[i:i+inner])
		for d := r - 2; d >= 0; d-- {
			if idx[d]++; idx[d] < x.dims[d] {
				break
			}
			idx[d] = 0
		}
	}
	return nil
}
