// Package vktest gives the Vulkan packages' tests the official delegate blobs and plans
// committed in testdata/vulkan (tools/reference/generate_vulkan_fixtures.py).
package vktest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/pte"
)

// Blob is one official VulkanBackend delegate blob and where it came from.
type Blob struct {
	File  string // testdata/vulkan/<model>/<variant>.pte
	Index int    // the delegate's index in the file
	Data  []byte
	Named func(string) ([]byte, error)
}

// Blobs returns every VulkanBackend delegate blob of the committed official .pte files.
func Blobs(t testing.TB) []Blob {
	t.Helper()
	files, _ := filepath.Glob(testutil.Testdata(t, "vulkan", "*", "*.pte"))
	var out []Blob
	for _, p := range files {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := pte.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range f.Program.ExecutionPlans[0].Delegates {
			if d.ID != "VulkanBackend" {
				continue
			}
			b, err := f.DelegateData(&d)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(testutil.Testdata(t, "vulkan"), p)
			out = append(out, Blob{File: rel, Index: i, Data: b, Named: f.NamedData})
		}
	}
	if len(out) < 5 {
		t.Fatalf("only %d Vulkan blobs in testdata/vulkan", len(out))
	}
	return out
}

// Region is one delegate of an official lowering, as the fixture records it.
type Region struct {
	BackendID string   `json:"backend_id"`
	Name      string   `json:"name"`
	Targets   []string `json:"targets"`
}

// BlobRecord is what the fixture records of one delegate blob.
type BlobRecord struct {
	Name      string          `json:"name"`
	BackendID string          `json:"backend_id"`
	Size      int             `json:"size"`
	SHA256    string          `json:"sha256"`
	Graph     json.RawMessage `json:"graph"`
	Constants []struct {
		NamedKey string `json:"named_key"`
		Offset   uint64 `json:"offset"`
		Length   uint64 `json:"length"`
		SHA256   string `json:"sha256"`
	} `json:"constants"`
	FlatbufferSHA256 string `json:"flatbuffer_sha256"`
	// CompileSpecs are the delegate's compile specs, values in hex.
	CompileSpecs map[string]string `json:"compile_specs"`
}

// Lowering is one official lowering of a zoo model (vulkan.json or vulkan_xnnpack.json).
type Lowering struct {
	Model string `json:"-"`
	// Variant is "vulkan" ([VulkanPartitioner()]) or "vulkan_xnnpack" ([VulkanPartitioner(),
	// XnnpackPartitioner()] with XNNPACK's transform passes).
	Variant               string         `json:"-"`
	Error                 string         `json:"error"`
	NumDelegatedSubgraphs int            `json:"num_delegated_subgraphs"`
	NumDelegatedNodes     int            `json:"num_delegated_nodes"`
	NumNonDelegatedNodes  int            `json:"num_non_delegated_nodes"`
	Regions               []Region       `json:"regions"`
	NonDelegatedTargets   map[string]int `json:"non_delegated_targets"`
	ByOperator            map[string]struct {
		Delegated    int `json:"delegated"`
		NonDelegated int `json:"non_delegated"`
	} `json:"delegation_by_operator"`
	Blobs     []BlobRecord `json:"blobs"`
	Operators []string     `json:"operators"`
	Delegates []string     `json:"delegates"`
}

// Lowerings returns every official lowering recorded in testdata/vulkan.
func Lowerings(t testing.TB) []Lowering {
	t.Helper()
	files, _ := filepath.Glob(testutil.Testdata(t, "vulkan", "*", "*.json"))
	var out []Lowering
	for _, p := range files {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var l Lowering
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		l.Model, l.Variant = filepath.Base(filepath.Dir(p)), strings.TrimSuffix(filepath.Base(p), ".json")
		out = append(out, l)
	}
	if len(out) == 0 {
		t.Fatal("no lowerings in testdata/vulkan")
	}
	return out
}
