//go:build !(linux && (amd64 || arm64))

package vkrt

import (
	"fmt"
	"runtime"
)

// Elsewhere etgo has no way to the Vulkan loader yet: the bindings (vk_linux.go) lay out the
// Vulkan structs for 64-bit Linux. The backend still registers, and says so when asked.

type device struct{ name string }

type compiled struct{ mapped []byte }

func openDevice() (*device, error) {
	return nil, fmt.Errorf("%w: etgo reaches the Vulkan loader on linux/amd64 and linux/arm64 only (this is %s/%s)", ErrNoDevice, runtime.GOOS, runtime.GOARCH)
}

func (d *device) describe() string { return d.name }

func (d *device) compile(*program) (*compiled, error) { return nil, ErrNoDevice }

func (c *compiled) run() error { return ErrNoDevice }

func (c *compiled) free() {}
