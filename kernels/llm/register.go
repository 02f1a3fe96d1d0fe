package llm

import (
	"fmt"

	"github.com/etgo/etgo/executor"
)

// Kernels returns the LLM custom operators; threads (at least 1) is how many goroutines one
// attention call may use.
func Kernels(threads int) []executor.Kernel {
	if threads < 1 {
		threads = 1
	}
	f32 := []executor.ScalarType{executor.Float32}
	return []executor.Kernel{
		{Name: "llama::custom_sdpa.out", DTypes: f32, Fn: customSDPAKernel(threads)},
		{Name: "llama::sdpa_with_kv_cache.out", DTypes: f32, Fn: sdpaWithKVCacheKernel(threads)},
		// The cache updates copy elements of any type (the official kernel memcpys bytes).
		{Name: "llama::update_cache.out", Fn: updateCacheKernel},
		{Name: "llama::update_cache_with_indices.out", Fn: updateCacheWithIndicesKernel},
	}
}

// Register adds the LLM custom operators to r.
func Register(r *executor.Registry, threads int) error {
	if err := r.RegisterKernels(Kernels(threads)...); err != nil {
		return fmt.Errorf("kernels/llm: %w", err)
	}
	return nil
}
