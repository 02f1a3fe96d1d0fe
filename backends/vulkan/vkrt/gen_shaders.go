//go:build ignore

// gen_shaders compiles every shaders/*.comp to shaders/*.spv with glslc (shaderc; Debian's
// glslc package): go generate ./backends/vulkan/vkrt. glslc's output is deterministic, so
// .ci/run checks the committed SPIR-V by regenerating it and diffing.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	files, err := filepath.Glob("shaders/*.comp")
	if err != nil || len(files) == 0 {
		fmt.Fprintln(os.Stderr, "gen_shaders: no shaders/*.comp (run from backends/vulkan/vkrt)")
		os.Exit(1)
	}
	for _, f := range files {
		out := strings.TrimSuffix(f, ".comp") + ".spv"
		cmd := exec.Command("glslc", "-O", "--target-env=vulkan1.0", "-o", out, f)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "gen_shaders: %s: %v\n", f, err)
			os.Exit(1)
		}
	}
}
