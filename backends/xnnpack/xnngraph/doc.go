// Package xnngraph is the XNNPACK delegate blob format: ParseBlob verifies and decodes a blob
// (the XH00 header, the XNNGraph flatbuffer with identifier XN00 or XN01, the constant region),
// Graph.Encode writes one as ExecuTorch's preprocess does, and Schedule, InferShapes and
// WithinDeclared check a graph's dataflow and shapes as the official runtime does at init.
//
// It depends on the flatbuffer schema (package schema) and etgo's flatbuffer verifier only:
// the ahead-of-time side (package aot) writes graphs with it, the run time (package xnnpack)
// reads them, and tools that only describe blobs (Describe, for etgo inspect) link neither.
//
// Every decoded index is checked before use: a Graph that ParseBlob returns has value ids that
// exist and appear once, node operands that are values, constants inside the constant table,
// at most MaxDims dims and bounded element counts; errors wrap ErrInvalidBlob and say where.
//
// Each node type is described once, in its operator family's file (op_elementwise.go,
// op_gemm.go, op_conv.go, op_pool.go, op_shape.go, op_attention.go): its flatbuffer table, the
// decoding and encoding of its parameters, its operands' roles, whether it honours
// output_min_max and its shape rule, registered at init (nodetype.go). The parser, the encoder,
// the verifier's spec and the checks look types up there instead of switching on them.
package xnngraph
