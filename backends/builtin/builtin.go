// Package builtin registers the run-time side of every backend etgo has, and links none of the
// lowering: it is what a program that only runs .pte files imports (the etgo Module does), while
// backends/all adds the ahead-of-time sides for `etgo lower`. A backend is added here with one
// line, and to backends/all with one more.
//
// The Vulkan backend reaches the system's Vulkan loader through purego, which on Linux makes
// even a CGO_ENABLED=0 binary dynamically linked against libc (it needs the C dynamic loader
// to dlopen libvulkan). Build with -tags novulkan for a static binary without it: Vulkan
// programs are then refused at load as needing an unregistered VulkanBackend.
package builtin

import (
	"fmt"
	"sort"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/executor"
)

// backends makes each backend's run-time side by backend id; threads is how many goroutines one
// delegate call may use. The Vulkan backend adds itself (vulkan.go) unless built with the
// novulkan tag.
var backends = map[string]func(threads int) executor.Backend{
	xnnpack.BackendID: func(threads int) executor.Backend { return xnnpack.Backend{Threads: threads} },
}

// IDs lists the backend ids, sorted.
func IDs() []string {
	ids := make([]string, 0, len(backends))
	for id := range backends {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Register adds every backend to reg.
func Register(reg *executor.Registry, threads int) error { return RegisterOnly(reg, threads, IDs()...) }

// RegisterOnly adds the backends with these ids to reg; an id etgo has no backend for is an
// error naming the ones it has.
func RegisterOnly(reg *executor.Registry, threads int, ids ...string) error {
	for _, id := range ids {
		mk, ok := backends[id]
		if !ok {
			return fmt.Errorf("builtin: no backend %q (etgo has %v)", id, IDs())
		}
		if err := reg.RegisterBackend(id, mk(threads)); err != nil {
			return err
		}
	}
	return nil
}
