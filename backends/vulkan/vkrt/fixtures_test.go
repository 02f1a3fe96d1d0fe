package vkrt_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// manifest is testdata/vkrt/manifest.json: per case, the operators the official Vulkan
// delegates hold and those left outside them.
type manifest struct {
	Versions map[string]string `json:"versions"`
	Cases    map[string]struct {
		Delegated []string `json:"delegated"`
		Outside   []string `json:"outside"`
	} `json:"cases"`
}

// TestFixtures runs every one-operator program of testdata/vkrt (tools/reference/
// generate_vkrt_fixtures.py), discovered from the folder so that a new case is tested without
// an edit here, against its eager outputs, and logs each case's worst relative error.
func TestFixtures(t *testing.T) {
	dir := testutil.Testdata(t, "vkrt")
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() {
			cases = append(cases, e.Name())
		}
	}
	if len(cases) == 0 {
		t.Fatal("no fixtures in testdata/vkrt")
	}
	requireDevice(t)
	var summary []string
	for _, c := range cases {
		t.Run(c, func(t *testing.T) {
			rec, ok := m.Cases[c]
			if !ok {
				t.Fatalf("testdata/vkrt/%s is not in manifest.json", c)
			}
			if len(rec.Delegated) == 0 {
				// Nothing to run on Vulkan; kept so a newer partitioner that takes it is tested.
				summary = append(summary, fmt.Sprintf("%s: not delegated", c))
				t.Skipf("the official VulkanPartitioner (ExecuTorch %s) delegates none of it; outside: %v", m.Versions["executorch"], rec.Outside)
			}
			d := filepath.Join(dir, c)
			worst := runPTE(t, filepath.Join(d, "vulkan.pte"), loadNpys(t, filepath.Join(d, "inputs", "input_*.npy")),
				loadNpys(t, filepath.Join(d, "expected", "eager", "output_*.npy")))
			summary = append(summary, fmt.Sprintf("%s: %.3g", c, worst))
			t.Logf("worst relative error %.3g", worst)
		})
	}
	t.Logf("worst relative error per case: %s", strings.Join(summary, ", "))
}
