// Package vulkan_test checks what a binary without the Vulkan run time does with the official
// Vulkan programs: until etgo has a Vulkan compute backend, their methods are refused at load,
// naming VulkanBackend, with every other backend and kernel etgo has registered.
package vulkan_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/pte"
)

func TestVulkanProgramsRefusedAtLoad(t *testing.T) {
	files, _ := filepath.Glob(testutil.Testdata(t, "vulkan", "*", "*.pte"))
	if len(files) == 0 {
		t.Fatal("no official Vulkan programs in testdata/vulkan")
	}
	for _, p := range files {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := pte.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		vulkan := false
		for _, d := range f.Program.ExecutionPlans[0].Delegates {
			vulkan = vulkan || d.ID == "VulkanBackend"
		}
		m, err := etgo.Load(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		err = m.LoadMethod("forward")
		m.Close()
		if !vulkan { // (max_dim: the Vulkan partitioner took nothing; the program runs)
			if err != nil {
				t.Errorf("%s: %v", p, err)
			}
			continue
		}
		if !errors.Is(err, etgo.ErrBackendNotRegistered) || !strings.Contains(err.Error(), "VulkanBackend") {
			t.Errorf("%s: loading forward gave %v, want ErrBackendNotRegistered naming VulkanBackend", p, err)
		}
	}
}
