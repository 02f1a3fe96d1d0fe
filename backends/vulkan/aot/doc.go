// Package aot is the Vulkan backend's ahead-of-time side, as ExecuTorch 1.5.1 has it.
//
// The partitioner is the VulkanPartitioner: the operator registry (op_registry.py: per
// operator the dtypes of its inputs and outputs, the buffer and texture memory layouts its
// implementation takes, its argument checks, whether it handles tensors of more than 4 dims or
// dynamic shapes), the representation rules of utils.py (3D texture extents against the
// texture limits, the synchronisation of an operator's input and output representations) and
// the options (texture_limits, small_texture_limits, require_dynamic_shapes,
// skip_bool_tensors, operator allow and block lists).
//
// Preprocess is VulkanBackend.preprocess (vulkan_preprocess.py), stage by stage:
//   - the graph passes that change fp32 programs: AddmmToLinearTransform, FuseBatchNormPass
//     (backends/transforms, its fused parameters placed before the weight they replace, as
//     create_constant_placeholder places them), FuseClampPass (et_vk.conv_with_clamp),
//     RemoveRedundantOpsTransform, SqueezeUnsqueezeInputs, FuseViewCopyTransform,
//     ViewCopyToSqueezeUnsqueezePass (preprocess_passes.go);
//   - the FX view of the result (fx.go): placeholders, a getitem per used item of a
//     multi-output call, users in the order their uses were made; insert_prepack_nodes;
//   - TagMemoryMetaPass (tagmem.go): OpRepSets, the downstream and upstream constraining, the
//     storage type and memory layout of every tensor, clone transitions (cached per source and
//     representation);
//   - MemoryPlanningPass with the greedy algorithm and no overlapping allocations
//     (memplan.go): mem_obj_id;
//   - VkGraphBuilder (build.go): value numbering in node order, schema-driven argument lists
//     with defaults, scalar de-duplication with Python's dict semantics (1 and 1.0 share a
//     value) and create_scalar_list_value's quirks, weights as named data keyed by their
//     SHA-256, 64-bit dtypes downcast; vkgraph encodes the VH00 header and the flatbuffer as
//     flatc lays it out.
//
// The blobs are byte-identical to the official ones on the zoo lowerings of testdata/vulkan,
// the small programs of testdata/vulkanpre and the corpus delegates of
// testdata/vulkan/corpus_blobs.json (the tests list the known differences and why). What the official preprocess would do that etgo does not — dynamic shapes
// (ConstraintBasedSymShapeEvalPass), the quantized and LLM fusions (FusePatternsPass,
// FuseQuantizedOpsTransform, FoldQDQPass; a region holding the operators of one of
// FusePatternsPass's fp32 patterns — rms_norm, rope, select_as_symint — is refused whole),
// InsertDtypePromotionPass, mutable buffers, a bool full() with a numeric fill (etgo's Edge
// graph cannot tell True from 1), the compile options that override storage, layout or dtypes
// — is refused with ErrUnsupported naming the node or option, never compiled differently.
//
// It links nothing of the run time (internal/layering checks it); the blob format is package
// vkgraph's.
package aot
