package vkrt

import (
	"embed"
	"strings"
)

//go:generate go run gen_shaders.go

// The compute shaders' SPIR-V, compiled from shaders/*.comp by glslc (gen_shaders.go) and
// committed, so building etgo needs no shader compiler; .ci/run regenerates them where glslc
// exists and fails when the committed ones differ.
//
//go:embed shaders/*.spv
var spirv embed.FS

func shaderSPIRV(name string) ([]byte, bool) {
	if strings.ContainsAny(name, "/.") {
		return nil, false
	}
	b, err := spirv.ReadFile("shaders/" + name + ".spv")
	return b, err == nil
}
