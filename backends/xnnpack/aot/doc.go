// Package aot is XNNPACK's ahead-of-time side: the Partitioner (ExecuTorch's
// XnnpackPartitioner, its 52 configs and their decline reasons, stated with the
// configuration-based partitioner of partition/configs), Preprocess (a claimed region compiled
// into an XNNGraph blob, as XnnpackBackend.preprocess does, after the rewrites of
// XNNPACKPassManager: the shared ones from backends/transforms and XNNPACK's own, here, each a
// passes.Pass) and Backend, the contract that registers both with package backends.
//
// It writes blobs with package xnngraph and links nothing of the run time: `etgo lower` needs
// no kernels, and a binary that only runs programs links none of this (internal/layering).
//
// # Precisions of constants
//
// As node_visitor.py's define_tensor: a float16 or bfloat16 value is declared in its dtype, and
// a constant of those dtypes keeps its bytes, unless the visitor forces fp32 (tensorOpts.fp32:
// op_conv2d's filter and bias, which XNNPACK's f16 convolutions take as fp32); float32 and
// float64 constants are stored as float32. The weight rewrites (backends/transforms: batch
// norm fused or decomposed) compute in the weights' dtype as torch does, so an fp16 model's
// blob is the official one (testdata/fp16, TestFP16LowerMatchesOfficial).
//
// # Operator families
//
// Each XNNPACK operator family has one file, op_<family>.go (op_conv.go, op_linear.go for the
// GEMMs, op_elementwise.go, op_activation.go, op_pool.go, op_shape.go, op_copy.go,
// op_softmax.go, op_resize.go, op_norm.go, op_quant.go), whose init registers, for its targets:
// the partitioner configs (partition/configs.Config values, made per partitioner since the
// GEMMs read its options), the visitor that writes an Edge node as XNNPACK node(s), the layout
// the operator needs (NHWC, NCHW, either, or a layout conversion itself), whether its XNNPACK
// node takes a fused output clamp, whether it is a clamp that folds into such a node, and its
// values-only form. The partitioner, the preprocess passes (FuseActivationPass,
// RemoveGetItemPass, ChannelsLastTaggedReshapePass, RemoveRedundantCopyPass) and the visitor
// look these up in the registry (registry.go); none of them lists operators of its own.
//
// The order of the configs is ExecuTorch's (ALL_PARTITIONER_CONFIGS), kept in one list,
// configOrder, which TestConfigOrder holds to testdata/executorch_configs.txt: families
// register configs by name, the list places them, so the order of the files' init functions
// decides nothing. An operator is registered once; a second registration of a target panics
// at init, which every test of the package reaches.
//
// Adding an XNNPACK node type, on this side: its family's file (a new op_<family>.go, or the
// config and the operator entry added to an existing one), plus its config's name in
// configOrder where ExecuTorch's ALL_PARTITIONER_CONFIGS puts it; a node type without a
// config (one a rewrite produces, such as amax) is its family's file alone: 1 or 2 places
// in 1 or 2 files. Before the registry the same change went to those of 7 lists in 3 files
// that concern it: the config table (configs.go); the visitor's unaryOps, binaryOps or switch
// (preprocess_visit.go); and in preprocess_passes.go fuseableOps, nhwcOps or nchwOps,
// FuseActivationPass's switch of activations, RemoveGetItemPass's of values-only forms and
// isToCopy's targets. A convolution-like operator took 4 places in 3 files (config, visitor,
// fuseableOps, nhwcOps), a fusable activation 3 in 3, a plain unary one 2 in 2; now each is
// 2 in 2, its registration and its configOrder line (for the unary one no fewer, but no
// longer a table that a pass reads). Beyond this package, the node type needs its family's
// xnngraph/op_<family>.go (verify, decode, encode the node) and backends/xnnpack's
// node_<family>.go (run it), and, only when XNNPACK's schema lacks it, schema/xnnpack.fbs and
// its generated Go; package xnnpack's doc counts that side.
package aot
