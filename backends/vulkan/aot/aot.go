package aot

import (
	"errors"
	"fmt"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/vulkan/vkgraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/pte"
)

// ErrPreprocessMissing is what Preprocess returns: etgo plans Vulkan delegates as the official
// toolchain does but does not yet compile them into VK00 blobs.
var ErrPreprocessMissing = errors.New("vulkan: etgo cannot compile a Vulkan delegate yet (preprocess is not implemented; lower with --plan, or with another partitioner)")

// Backend is the Vulkan backend's ahead-of-time contract: `etgo lower --partitioner vulkan`.
// Its partitioner needs no transform passes (the VulkanPartitioner recommends none).
func Backend() backends.Backend {
	return backends.Backend{
		Name: "vulkan", ID: vkgraph.BackendID,
		NewPartitioner: func(o backends.Options) partition.Partitioner { return New(Options{PerOp: o.PerOp}) },
		Preprocess:     Preprocess,
		DescribeBlob:   vkgraph.Describe,
	}
}

// Preprocess refuses, naming the delegate, until etgo has Vulkan preprocess (its passes and
// graph builder).
func Preprocess(_ *ir.Graph, d *partition.Delegate) ([]byte, []pte.NamedBlob, error) {
	name := "?"
	if d != nil && d.Call != nil {
		name = d.Call.Name
	}
	return nil, nil, fmt.Errorf("delegate %s: %w", name, ErrPreprocessMissing)
}
