// Package aot is the Vulkan backend's ahead-of-time side, as ExecuTorch 1.5.1's
// VulkanPartitioner has it: the operator registry (op_registry.py: per operator the dtypes of
// its inputs and outputs, the buffer and texture memory layouts its implementation takes, its
// argument checks, whether it handles tensors of more than 4 dims or dynamic shapes), the
// representation rules of utils.py (3D texture extents against the texture limits, the
// synchronisation of an operator's input and output representations) and the options
// (texture_limits, small_texture_limits, require_dynamic_shapes, skip_bool_tensors, operator
// allow and block lists).
//
// Not yet here: the fusable patterns (quantized linear/convolution, RMS norm, rotary
// embedding, SDPA), which only matter for quantized and LLM programs, and preprocess (the
// Vulkan passes and the VK00 graph builder): Preprocess refuses with ErrPreprocessMissing.
//
// It links nothing of the run time (internal/layering checks it); the blob format is package
// vkgraph's.
package aot
