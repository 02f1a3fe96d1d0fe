// Package all lists every backend etgo has for the `etgo` command: Registry returns their
// ahead-of-time sides registered (for `etgo lower`), RegisterRuntime adds their run-time sides
// (backends/builtin's list) to a executor.Registry (for `etgo run`, `check`, `bench`). It links
// the lowering; a program that only runs .pte files imports backends/builtin instead, and one
// that wants fewer backends registers the ones it wants itself.
package all

import (
	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/builtin"
	vkaot "github.com/etgo/etgo/backends/vulkan/aot"
	xnnaot "github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/executor"
)

// DefaultOrder is the partitioner list `etgo lower` uses when none is given.
var DefaultOrder = []string{"xnnpack"}

// Registry returns a registry with every backend etgo has.
func Registry() *backends.Registry {
	r := backends.NewRegistry()
	for _, b := range []backends.Backend{xnnaot.Backend(), vkaot.Backend()} {
		if err := r.Register(b); err != nil {
			panic(err) // the list above is fixed: a duplicate is a programming error
		}
	}
	return r
}

// RegisterRuntime registers every backend's run-time side in reg; threads is how many
// goroutines one delegate call may use.
func RegisterRuntime(reg *executor.Registry, threads int) error {
	return builtin.Register(reg, threads)
}
