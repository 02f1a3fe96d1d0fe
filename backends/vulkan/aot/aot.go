package aot

import (
	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/vulkan/vkgraph"
	"github.com/etgo/etgo/partition"
)

// Backend is the Vulkan backend's ahead-of-time contract: `etgo lower --partitioner vulkan`.
// Its partitioner needs no transform passes (the VulkanPartitioner recommends none).
func Backend() backends.Backend {
	return backends.Backend{
		Name: "vulkan", ID: vkgraph.BackendID,
		NewPartitioner: func(o backends.Options) partition.Partitioner { return New(Options{PerOp: o.PerOp}) },
		Preprocess:     PreprocessDelegate,
		DescribeBlob:   vkgraph.Describe,
	}
}
