// Package xnnpack is etgo's XNNPACK-compatible backend at run time: it executes in Go the
// delegate blobs that ExecuTorch's XnnpackPartitioner writes (an "XH00" header, an XNNGraph
// flatbuffer with identifier XN00 or XN01, and constant data inline or in the program's named
// data). Register it under "XnnpackBackend" (Register, or Backend in a executor.Registry).
//
// The backend is three packages, by role, importing in one direction (internal/layering checks
// it): xnnpack/xnngraph is the graph format (parse, verify, encode; it depends on its schema
// only, so tools that read blobs link neither side); xnnpack/aot is the ahead-of-time side (the
// partitioner and preprocess, which etgo lower uses); this package is the run time (the plan
// and the node kernels, on internal/gemm and internal/workpool). A binary that only runs
// programs links no part of the lowering.
//
// A blob is untrusted input: xnngraph.ParseBlob verifies the header, the flatbuffer, every value
// id, shape and constant reference before anything uses them, and returns errors that say what
// is wrong and where. Unsupported node types and datatypes are refused at init, by name.
//
// Init refuses every blob the official runtime refuses, at load or at execute, and the blobs it
// runs on memory nothing wrote (xnngraph's check.go): the nodes run in dataflow order whatever their order
// in the file, as XNNPACK schedules them, and those no graph output depends on do not run;
// among the rest every input must be a graph input, a constant or an earlier node's output,
// every value is written once, never a constant or a graph input, and there is no cycle. Each
// node's operands are then checked for the ranks and sizes its operation needs, propagating
// shapes from the delegate call's tensors (executor.BackendInitContext.Calls) as XNNPACK does
// when it executes; constants must hold exactly the bytes their dims and datatype declare. A
// refusal names the node, its operation and what is inconsistent. testdata/mutants (made by
// tools/reference/mutate_blobs.py) records the campaign that compares these verdicts with the
// official runtime's on thousands of corrupt blobs.
//
// Graphs run in fp32, or statically quantized to 8 bits (qint8 activations, qint8 or per-channel
// qcint8 filters, int32 biases) with XNNPACK's own integer and requantization arithmetic, so the
// results match the official runtime's bit for bit (quant.go). qint8 codes are stored as int8,
// fp32 values as float32; the kernels that only move elements are written once for both, and
// the convolutions share their loops between fp32 and int8 (node_conv.go).
//
// fp16 graphs (a model in .half()) run as XNNPACK runs them on x86 without AVX512-FP16: fp32
// arithmetic, each node's fp16 output rounded once, its f16 kernels' NaN handling and the f16
// depthwise kernels' per-tap rounding (node_fp16.go); testdata/fp16 is within 1.1e-3 of the
// official outputs' largest magnitude, most fixtures bit for bit.
//
// bf16 graphs (XnnpackPartitioner(enable_bf16=True)) run as XNNPACK's bf16 -> fp32 fallback runs
// them on CPUs without AVX512-BF16: fp32 inside, fully connected outputs and graph outputs
// rounded to bf16; the nodes XNNPACK will not define with bf16 (convolutions, pooling, softmax)
// are refused at init as the official runtime refuses them (node_bf16.go); testdata/bf16 bit
// for bit.
//
// Dynamically quantized linear layers (XNNPACKQuantizer's dynamic config, torchao's 8da4w) run
// too: a Convert to qdint8 quantizes each row with the scale and zero point XNNPACK chooses, and
// a fully connected layer multiplies its codes by qcint8 per-channel or qbint4 blockwise (bf16
// scales) filters into fp32, in XNNPACK's x86 arithmetic and order, NaN and infinities
// included; testdata/dynquant matches the official runtime bit for bit (quant_dynamic.go).
// qdint8 codes are int8 with one (scale, zero point) per row; 4-bit filters are unpacked once.
// Dynamically quantized convolutions and deconvolutions (the dynamic config on conv2d: one row
// per image) run as XNNPACK's qd8 IGEMM computes them, bit for bit too (node_conv_dynamic.go);
// a 1×1 one is XNNPACK's fully connected layer, on rows of pixels.
// 4-bit per-channel (qcint4) filters of fully connected layers run, dynamic (qd8 × qc4w) and
// static (qs8 × qc4w), bit for bit (node_fc_qc4w.go), except over an odd number of input
// channels, which XNNPACK reads past the input (refused by name; testdata/dynquant_refused).
// A qint8 constant pad moves codes, padding with the value's code (node_pad_quant.go);
// ExecuTorch 1.5.1 writes quantized pads only across datatypes (fp32 into qint8), which XNNPACK
// and etgo refuse (testdata/quant_refused/pad).
// Still refused, by name: qdint8 feeding anything else (batch matrix multiplies, depthwise
// convolutions, which the official partitioner never gives it); transposed 4-bit filters.
//
// # Adding a node type
//
// A node type lives in the schema and in two files named by its operator family (elementwise,
// gemm, conv, pool, shape, attention), one per layer:
//
//   - schema/xnnpack.fbs and the generated Go (schema/gen.sh): its table and union member;
//   - xnngraph/op_<family>.go: one register call with its table for the verifier (which
//     TestSpecMatchesFBS holds to the .fbs), the decoding and encoding of its parameters, its
//     operands' roles and which may be absent, whether it honours output_min_max, its shape rule;
//   - node_<family>.go (this package): one registerNode call with its fp32 kernel, whether it
//     applies its own output range, its constant-filter packing, its quantized form (datatype
//     checks, scales, the kernel), whether a following activation may be fused into it or it is
//     one, and the kernels themselves.
//
// Nothing else lists node types; TestEveryNodeTypeRegistered and TestNodeKernels check both
// registries against the schema. Before this layout (issue 14) the same information was in
// eighteen tables and switches keyed by node type, in eight files: xnngraph's spec.go (the
// union's positional member list), blob.go (the decode switch, takesOutputRange, catInputs),
// serialize.go (the encode switch), check.go (operandRoles, optionalOperand, inferNode, a special
// case in InferShapes); this package's ops.go (the ops map), backend.go (fusesClamp, the packing
// switch, fuseActivations' producer switch and consumer test), quant_ops.go (quantStep's switch,
// quantLinear's filter-layout and kernel switches); and internal/xnntest's optional-bias switch;
// with the kernels in ops.go, ops_nhwc.go and quant_ops.go. A type with its own table,
// parameters, a constant filter, an output range and a quantized form (a convolution) touched
// fifteen of the eighteen, in eight files; it now touches two files. A unary activation on the
// shared _XNNNode1x1 table touched two places (the union's member list and the ops map) and
// still touches two (its two register calls).
// Lowering to the type (the partitioner's configs and preprocess, package aot) is the
// ahead-of-time side's, outside this count.
//
// A traced call (executor.WithEventTracer) reports each node it runs as an event named as the
// official runtime's XNNPACK profiler names it — the operator the node becomes and its count in
// the delegate ("Convolution (NHWC, F32) IGEMM #3"; nodeKernel.operator) — so the official
// Inspector lists etgo's ETDump as it lists the official one. XNNPACK sometimes fuses or splits
// nodes into other operators (a clamp after an add, two reshapes); etgo's events stay one per
// node.
//
// Quantized layers run on internal/gemm's int8 kernels (AVX-512 VNNI assembly where the CPU
// has it, portable loops elsewhere, the same codes bit for bit): quant_gemm.go (static
// convolutions as a direct or an indirect GEMM, depthwise, fully connected), quant_dynamic_gemm.go
// (qd8 × qc8w and qd8 × qb4w). Two plan rewrites keep the codes and drop work, as XNNPACK's
// subgraph fusion does: a quantized clamp folds into the layer whose output only it reads
// (fuseQuantClamps), and an elementwise fp32 chain between a dequantizing and a quantizing
// Convert becomes a 256-entry table computed by the chain's own kernels (quant_lut.go).
//
// Execute checks the call's context between nodes: a cancelled call returns the context's error
// once the node running finishes (milliseconds at most on the full-size zoo models; see
// runtime's doc for the measured bound).
//
// NaN and infinities come out as the official runtime's, which are XNNPACK's x86 kernels' and
// not always PyTorch's (testdata/nan, runtime/nan_test.go): XNNPACK writes min and max as MAXPS
// and MINPS, which return their second operand when either is NaN, so operand order decides.
// Clamps fused into GEMMs, convolutions and depthwise convolutions and clamp nodes take the bound
// first and keep NaN; maximum and minimum take the value first (the one-element operand second);
// max pooling folds taps in XNNPACK's tree and never outputs NaN; average pooling turns a NaN
// into its lower bound. XNNPACK's sqrt, rsqrt, exp, log and hardswish give its own results at
// ±Inf, ±0 and near the float32 limit (node_elementwise.go). Subnormals, which XNNPACK flushes to zero, are
// not emulated.
package xnnpack
