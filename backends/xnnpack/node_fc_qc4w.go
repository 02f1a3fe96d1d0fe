package xnnpack

import (
	"fmt"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
)

// 4-bit per-channel (qcint4) filters: what ExecuTorch writes for a per-channel weight quantized
// to [-8, 7] (XNNPACKQuantizer with weight_qmin=-8, weight_qmax=7, dynamic or static), which
// XNNPACK runs in fully connected layers only: qd8 × qc4w into fp32 (dynamic) and qs8 × qc4w
// into qs8 (static).
//
// Storage: ExecuTorch's convert_to_qc4w writes the codes plus 8, two a byte, the even element
// in the low nibble, each row of input channels padded to whole bytes (the pad code is 8: a zero
// weight). XNNPACK's fully connected layer rounds a 4-bit filter's input channels up to whole
// bytes too (xnn_create_fully_connected_nc_qd8_f32_qc4w, "planes"), so the filters agree; but it
// then reads the activations with that rounded row length as well (pack_lh's lhs_stride): for
// an odd number of input channels the official runtime quantizes and multiplies rows that start
// one element later per row, and its last row reads past the input
// (testdata/dynquant/linear_qc4w_odd: outputs far from the fp32 model's after the first row; a
// model of that reading matches rows 0-2 of the official outputs). What lies past the input is
// not defined, so etgo refuses such a layer by name instead of guessing.
//
// Arithmetic: the integer sums are exact as for qcint8; the dynamic layer's fp32 stage is
// qd8 × qc8w's, fma(float(acc)·input_scale, filter_scale, bias), but its GEMM is XNNPACK's C
// kernel (qd8-f32-qc4w-gemm-*-avx512vnni-prfm, the non-GFNI one, which XNNPACK picks on Zen 4
// and 5), which clamps value first (qdlinear.cKernel); the static layer requantizes as qcint8's.

// isQC4WFilter reports whether filter w of node n is a qcint4 filter XNNPACK runs: a fully
// connected layer's, [out, in] (XNNPACK has no 4-bit convolutions, and its qc4w packing reads
// output-channel rows only).
func isQC4WFilter(n *xnngraph.Node, w *qinfo, ocDim int) bool {
	return w != nil && w.dtype == schema.XNNDatatypexnn_datatype_qcint4 && n.Op == schema.XNodeUnionXNNFullyConnected && ocDim == 0
}

// unpackQC4W widens a qcint4 [out, in] constant (an even number of input channels), less its
// zero point 8: element i, row-major, at nibble i.
func unpackQC4W(v *xnngraph.Value, raw []byte) ([]int32, error) {
	if len(v.Dims) != 2 {
		return nil, fmt.Errorf("%w: value %d (%s) has dims %v; 4-bit per-channel filters run as [out, in]", ErrUnsupported, v.ID, v.DType, v.Dims)
	}
	oc, ic := uint64(v.Dims[0]), uint64(v.Dims[1])
	if ic%2 != 0 {
		return nil, fmt.Errorf("%w: value %d (%s) has %d input channels; XNNPACK reads the activations of a 4-bit layer in rows rounded up to even, past the input for an odd count", ErrUnsupported, v.ID, v.DType, ic)
	}
	n := oc * ic
	if uint64(len(raw)) != n/2 {
		return nil, errorf("value %d: constant has %d bytes, its dims %v of %s are %d", v.ID, len(raw), v.Dims, v.DType, n/2)
	}
	out := make([]int32, n)
	for i := range out {
		b := raw[i/2]
		if i%2 == 1 {
			b >>= 4
		}
		out[i] = int32(b&0xF) - 8
	}
	return out, nil
}
