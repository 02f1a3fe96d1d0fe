package xnnpack

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/executor"
)

// bf16 graphs (a model in bfloat16 lowered by XnnpackPartitioner(enable_bf16=True)): values,
// constants and the delegate's tensors are bf16, but for linear biases, which preprocess widens
// to fp32.
//
// How the official runtime computes them on a CPU without AVX512-BF16 (this machine; testdata/
// bf16): XNNPACK has almost no bf16 microkernels there (its only native bf16 operators are the
// bf16_f32 GEMMs, whose kernels need AVX512-BF16, and a few reductions and converts), so
// xnn_create_runtime runs xnn_subgraph_fallback_from_bf16_to_fp32 (subgraph/rewrites/
// cvt_to_fp32.cc) on every graph: each node with a bf16 operand becomes its fp32 node, its
// bf16 inputs converted to fp32 (exactly; static data converted once), its internal outputs
// retyped fp32 (no rounding between nodes) and its external outputs written through a convert
// fp32 -> bf16 (math_cvt_bf16_fp32: to nearest even, a NaN kept NaN with its sign). ExecuTorch's
// XNNCompiler defines a bf16 fully connected layer with an fp32 output and a convert after it
// (XNNPACK's only bf16 FC is bf16 x bf16 -> fp32), which the same rewrite keeps. So etgo widens
// bf16 inputs and constants to fp32, runs its fp32 kernels, and rounds only the graph outputs.
//
// What the official runtime refuses: XNNPACK checks a node's datatypes when ExecuTorch defines
// it, before the rewrite, and most node definitions enumerate fp32, fp16 and the quantized types
// but not bf16 (convolutions, pooling, softmax, resize, PReLU, ...): the delegate then fails to
// load ("Failed to create convolution node 1 with code: xnn_status_invalid_parameter").
// checkBF16Nodes refuses the same nodes at init, by name.

func bf16ToF32(b uint16) float32 { return math.Float32frombits(uint32(b) << 16) }

// f32ToBF16 is XNNPACK's math_cvt_bf16_fp32: round to nearest even; a NaN whose payload lies in
// the low 16 bits only gets the quiet bit, so that it stays NaN.
func f32ToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7f800000 != 0x7f800000 {
		b += 0x7fff + (b>>16)&1
	} else if b&0x007fffff != 0 {
		b |= 0x00400000
	}
	return uint16(b >> 16)
}

// bindBF16Input widens bf16 graph input tensor t into value i's own buffer.
func (p *plan) bindBF16Input(i int, t *executor.Tensor) {
	src := executor.Data[uint16](t)
	v := &p.vals[i]
	if cap(v.f16in) < len(src) {
		v.f16in = make([]float32, len(src))
	}
	v.f16in = v.f16in[:len(src)]
	for k, b := range src {
		v.f16in[k] = bf16ToF32(b)
	}
	v.data = v.f16in
}

// storeBF16Output narrows value i into bf16 output tensor t (the fallback's output convert).
func (p *plan) storeBF16Output(i int, t *executor.Tensor) {
	v := &p.vals[i]
	dst := executor.Data[uint16](t)
	for k, x := range v.data[:v.numel()] {
		dst[k] = f32ToBF16(x)
	}
}

// bf16Defines classifies the node types XNNPACK defines with bf16 operands: "same" (one datatype
// across inputs and outputs: the generic binary and unary elementwise and shape definitions),
// "fc" (fully connected: bf16 input and filter, fp32 bias, and an fp32 output or, through
// XNNCompiler's convert, a bf16 one), "bmm" (bf16 inputs, fp32 output). Others are refused.
var bf16Defines = map[schema.XNodeUnion]string{
	schema.XNodeUnionXNNAdd: "same", schema.XNodeUnionXNNSubtract: "same", schema.XNodeUnionXNNMultiply: "same",
	schema.XNodeUnionXNNDiv: "same", schema.XNodeUnionXNNMinimum: "same", schema.XNodeUnionXNNMaximum: "same",
	schema.XNodeUnionXNNAbs: "same", schema.XNodeUnionXNNCeiling: "same", schema.XNodeUnionXNNClamp: "same",
	schema.XNodeUnionXNNCos: "same", schema.XNodeUnionXNNELU: "same", schema.XNodeUnionXNNExp: "same",
	schema.XNodeUnionXNNFloor: "same", schema.XNodeUnionXNNGelu: "same", schema.XNodeUnionXNNHardswish: "same",
	schema.XNodeUnionXNNLeakyReLU: "same", schema.XNodeUnionXNNLog: "same", schema.XNodeUnionXNNNegate: "same",
	schema.XNodeUnionXNNReciprocalSquareRoot: "same", schema.XNodeUnionXNNSigmoid: "same", schema.XNodeUnionXNNSin: "same",
	schema.XNodeUnionXNNSquare: "same", schema.XNodeUnionXNNSquareRoot: "same", schema.XNodeUnionXNNTanh: "same",
	schema.XNodeUnionXNNConcatenate2: "same", schema.XNodeUnionXNNConcatenate3: "same",
	schema.XNodeUnionXNNConcatenate4: "same", schema.XNodeUnionXNNConcatenate5: "same",
	schema.XNodeUnionXNNCopy: "same", schema.XNodeUnionXNNStaticReshape: "same", schema.XNodeUnionXNNStaticSlice: "same",
	schema.XNodeUnionXNNStaticTranspose: "same", schema.XNodeUnionXNNStaticConstantPad: "same",
	schema.XNodeUnionXNNConvert:             "convert",
	schema.XNodeUnionXNNFullyConnected:      "fc",
	schema.XNodeUnionXNNBatchMatrixMultiply: "bmm",
}

// checkBF16Nodes refuses a node with a bf16 operand that XNNPACK's definition of it refuses
// (see the top of this file), naming the node as the official log does.
func (p *plan) checkBF16Nodes() error {
	dt := func(id uint32) schema.XNNDatatype {
		if id == xnngraph.InvalidID {
			return schema.XNNDatatypexnn_datatype_invalid
		}
		return p.g.Values[p.index[id]].DType
	}
	const bf, f32 = schema.XNNDatatypexnn_datatype_bf16, schema.XNNDatatypexnn_datatype_fp32
	for k := range p.g.Nodes {
		n := &p.g.Nodes[k]
		ids := append(append([]uint32(nil), n.Inputs...), n.Outputs...)
		has := false
		for _, id := range ids {
			has = has || (id != xnngraph.InvalidID && dt(id) == bf)
		}
		if !has {
			continue
		}
		ok := false
		switch bf16Defines[n.Op] {
		case "same":
			ok = true
			for _, id := range ids {
				ok = ok && (id == xnngraph.InvalidID || dt(id) == bf)
			}
		case "convert":
			ok = len(n.Inputs) == 1 && len(n.Outputs) == 1
		case "fc":
			ok = len(n.Inputs) >= 2 && len(n.Outputs) == 1 && dt(n.Inputs[0]) == bf && dt(n.Inputs[1]) == bf &&
				(len(n.Inputs) < 3 || n.Inputs[2] == xnngraph.InvalidID || dt(n.Inputs[2]) == f32) &&
				(dt(n.Outputs[0]) == bf || dt(n.Outputs[0]) == f32)
		case "bmm":
			ok = len(n.Inputs) == 2 && len(n.Outputs) == 1 && dt(n.Inputs[0]) == bf && dt(n.Inputs[1]) == bf && dt(n.Outputs[0]) == f32
		}
		if !ok {
			return fmt.Errorf("%w: node %d (%s) has bf16 operands XNNPACK does not define it with (the official runtime fails to load this delegate: xnn_status_invalid_parameter)",
				ErrUnsupported, k, n.OpName())
		}
	}
	return nil
}

// roundBF16Outputs rounds a fully connected layer's bf16 output to bf16 after it runs, internal
// ones too: XNNCompiler's convert fp32 -> bf16 after the fp32 FC is one the fallback keeps
// native (a convert to bf16), so the next node reads bf16 values, where every other node's
// internal output is retyped fp32 and read unrounded.
func (p *plan) roundBF16Outputs(n *xnngraph.Node) {
	if n.Op != schema.XNodeUnionXNNFullyConnected || len(n.Outputs) != 1 || n.Outputs[0] == xnngraph.InvalidID {
		return
	}
	if i := p.index[n.Outputs[0]]; p.bf16[i] {
		v := &p.vals[i]
		for k, x := range v.data[:v.numel()] {
			v.data[k] = bf16ToF32(f32ToBF16(x))
		}
	}
}
