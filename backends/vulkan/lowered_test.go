//go:build !novulkan

package vulkan_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo"
	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	vkaot "github.com/etgo/etgo/backends/vulkan/aot"
	"github.com/etgo/etgo/backends/vulkan/vkrt"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/pte"
)

// etgoVariants are the partitioner lists the official fixtures were made with (as
// generate_vulkan_fixtures.py's partitioners()).
var etgoVariants = map[string]struct {
	names []string
	o     vkaot.Options
}{
	"vulkan":                {[]string{"vulkan"}, vkaot.Options{}},
	"vulkan_xnnpack":        {[]string{"vulkan", "xnnpack"}, vkaot.Options{}},
	"vulkan_noconv_xnnpack": {[]string{"vulkan", "xnnpack"}, vkaot.Options{OperatorBlocklist: []string{"aten.convolution.default"}}},
	"vulkan_small":          {[]string{"vulkan"}, vkaot.Options{SmallTextureLimits: true}},
}

// lowerZoo lowers a zoo model with etgo's partitioners and preprocess, as `etgo lower
// --partitioner vulkan [--partitioner xnnpack]` does, and returns the program's bytes.
func lowerZoo(t *testing.T, model, variant string) ([]byte, error) {
	t.Helper()
	prog, err := pt2.Open(testutil.Testdata(t, "zoo", model, "model.pt2"))
	if err != nil {
		t.Fatal(err)
	}
	v := etgoVariants[variant]
	reg := all.Registry()
	parts, transform, err := reg.Partitioners(v.names, backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	parts[0] = vkaot.New(v.o)
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: parts, TransformPasses: transform})
	if err != nil {
		t.Fatal(err)
	}
	contents, err := lower.ToExecuTorch(edge.Plan, reg)
	if err != nil {
		return nil, err
	}
	return pte.Write(contents, pte.WriteOptions{})
}

// TestEtgoLoweredPrograms: every model and variant the official toolchain lowered in
// testdata/vulkan (discovered from its .json files) is lowered by etgo to a .pte, which runs on
// this machine's Vulkan device against the zoo's eager outputs — or is refused as the official
// blobs are (the vkrt operators of unsupported), or, for a region etgo's preprocess refuses
// (dynamic shapes), fails to lower with vkaot.ErrUnsupported.
func TestEtgoLoweredPrograms(t *testing.T) {
	if _, noDevice := vkrt.Available(); noDevice != nil {
		if os.Getenv("ETGO_REQUIRE_VULKAN") != "" {
			t.Fatalf("ETGO_REQUIRE_VULKAN is set and: %v", noDevice)
		}
		t.Skipf("no Vulkan device: %v", noDevice)
	}
	files, _ := filepath.Glob(testutil.Testdata(t, "vulkan", "*", "*.json"))
	var summary []string
	ran := 0
	for _, f := range files {
		model, variant := filepath.Base(filepath.Dir(f)), strings.TrimSuffix(filepath.Base(f), ".json")
		if _, ok := etgoVariants[variant]; !ok {
			continue
		}
		name := model + "/" + variant
		t.Run(name, func(t *testing.T) {
			raw, err := lowerZoo(t, model, variant)
			if errors.Is(err, vkaot.ErrUnsupported) {
				if model != "dynamic_batch" {
					t.Fatalf("preprocess refused: %v", err)
				}
				summary = append(summary, name+": preprocess refused (dynamic shapes)")
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			m, err := etgo.LoadBytes(raw)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			err = m.LoadMethod("forward")
			if ops := unsupported[name]; ops != nil {
				if !errors.Is(err, vkrt.ErrUnsupported) {
					t.Fatalf("loading forward gave %v, want vkrt.ErrUnsupported naming %v", err, ops)
				}
				summary = append(summary, name+": refused by vkrt")
				return
			}
			if err != nil {
				t.Fatalf("loading forward: %v", err)
			}
			worst := runZoo(t, m, model)
			ran++
			summary = append(summary, fmt.Sprintf("%s: %.3g", name, worst))
		})
	}
	if ran == 0 {
		t.Error("no etgo-lowered Vulkan program ran")
	}
	t.Logf("etgo's lowerings, worst relative error: %s", strings.Join(summary, ", "))
}
