// Package vkgraph is the Vulkan delegate blob format (ExecuTorch's VulkanBackend, 1.5.1):
// ParseBlob verifies and decodes a blob — the 30-byte VH00 header (padded to 32), the VkGraph
// flatbuffer with file identifier VK00, the inline constant region — Graph.Encode writes one as
// ExecuTorch's vulkan_graph_serialize does, and Describe counts a blob's operators for
// `etgo inspect`.
//
// It depends on the flatbuffer schema (package schema) and etgo's flatbuffer verifier only,
// so the ahead-of-time side (backends/vulkan/aot) and tools that only describe blobs can share
// it without linking each other.
//
// Every decoded index is checked before use: a Graph that ParseBlob returns has operator
// arguments, inputs, outputs and list items that name values, tensors whose constant ids name
// constants, inline constants inside the constant region and large enough for their tensor,
// at most MaxDims dims and element counts that fit an int64; errors wrap ErrInvalidBlob and say
// where (the value or operator index).
package vkgraph
