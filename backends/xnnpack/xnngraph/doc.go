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
package xnngraph
