//go:build !novulkan

package builtin

import (
	"github.com/etgo/etgo/backends/vulkan/vkrt"
	"github.com/etgo/etgo/executor"
)

// Registering opens nothing: the Vulkan backend looks for its loader and device when a method
// with a Vulkan delegate loads (IsAvailable), so on a machine without Vulkan every program
// without such a delegate loads as before, and one with it is refused naming what is missing.
func init() {
	backends[vkrt.BackendID] = func(int) executor.Backend { return vkrt.Backend{} }
}
