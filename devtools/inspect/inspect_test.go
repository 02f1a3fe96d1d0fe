package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/vulkan/vkgraph"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/pte"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// describers are the blob describers `etgo inspect` has (backends/all's): XNNPACK's and Vulkan's.
var describers = map[string]Describer{xnngraph.BackendID: xnngraph.Describe, vkgraph.BackendID: vkgraph.Describe}

// TestGolden compares text and JSON reports of zoo and wild files with testdata/*.golden.
func TestGolden(t *testing.T) {
	wild := testutil.WildDir(t)
	for _, tc := range []struct{ name, path string }{
		{"conv_relu_xnnpack", testutil.Testdata(t, "zoo", "conv_relu", "xnnpack.pte")},
		{"split_delegation_xnnpack", testutil.Testdata(t, "zoo", "split_delegation", "xnnpack.pte")},
		// The official [VulkanPartitioner(operator_blocklist=[convolution]), XnnpackPartitioner()]:
		// delegates of two backends and a portable mean.
		{"residual_cnn_vulkan_noconv_xnnpack", testutil.Testdata(t, "vulkan", "residual_cnn", "vulkan_noconv_xnnpack.pte")},
		// testdata/mixed (generate_mixed_backends.py): Vulkan, XNNPACK and a portable cumsum.
		{"conv_head_vulkan_noconv_xnnpack", testutil.Testdata(t, "mixed", "conv_head", "vulkan_noconv_xnnpack.pte")},
		{"max_head_vulkan_xnnpack", testutil.Testdata(t, "mixed", "max_head", "vulkan_xnnpack.pte")},
		{"dynamic_batch_portable", testutil.Testdata(t, "zoo", "dynamic_batch", "portable.pte")},
		{"mutable_buffer", testutil.Testdata(t, "pte", "mutable_buffer.pte")},
		{"external_constants", testutil.Testdata(t, "pte", "external_constants.pte")},
		{"multi_method", testutil.Testdata(t, "pte", "multi_method.pte")},
		{"wild_qnn_llama", filepath.Join(wild, "examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_llama_qnn.pte")},
		{"wild_keyword_spotting", filepath.Join(wild, "examples__arduino__examples__KeywordSpotting__model.pte")},
		{"wild_deprecated_constant_buffer", filepath.Join(wild, "test__models__deprecated__ModuleLinear-no-constant-segment.pte")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := pte.Open(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r := Summarize(f, filepath.Base(tc.path), describers)
			r.NameBackends(func(id string) string {
				return map[string]string{xnngraph.BackendID: "xnnpack", vkgraph.BackendID: "vulkan"}[id]
			})
			var text bytes.Buffer
			r.WriteText(&text)
			js, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name+".txt.golden", text.Bytes())
			golden(t, tc.name+".json.golden", append(js, '\n'))
		})
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", name, got)
	}
}

// TestZooReports checks each zoo report against the official record: the method's operator
// table, its delegate count, and the input and output counts.
func TestZooReports(t *testing.T) {
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		for _, v := range []zoo.Variant{zoo.Portable, zoo.Xnnpack} {
			f, err := pte.Open(m.PTE(v))
			if err != nil {
				t.Fatal(err)
			}
			r := Summarize(f, m.Name, describers)
			f.Close()
			fwd := r.Methods[0]
			if got, want := len(fwd.Operators), len(m.Delegation.Operators[v]); got != want {
				t.Errorf("%s: %d operators, official %d", v, got, want)
			}
			if got, want := len(fwd.Delegates), len(m.Delegation.Delegates[v]); got != want || fwd.DelegateCalls != want {
				t.Errorf("%s: %d delegates, %d delegate calls, official %d", v, got, fwd.DelegateCalls, want)
			}
			if len(fwd.Inputs) != len(m.Inputs) || len(fwd.Outputs) != len(m.Expected[zoo.Eager]) {
				t.Errorf("%s: %d inputs, %d outputs; fixtures have %d and %d", v, len(fwd.Inputs), len(fwd.Outputs), len(m.Inputs), len(m.Expected[zoo.Eager]))
			}
			if v == zoo.Xnnpack && m.Delegation.NumDelegatedSubgraphs > 0 && (len(r.Required.Backends) != 1 || r.Required.Backends[0] != "XnnpackBackend") {
				t.Errorf("xnnpack: required backends %v", r.Required.Backends)
			}
		}
	})
}

// A describer that fails or panics on a blob (untrusted input) leaves its error in the summary.
func TestSummarizeBlobContainsFailures(t *testing.T) {
	for _, c := range []struct {
		name string
		fn   Describer
		want string
	}{
		{"error", func([]byte) (map[string]int, int, error) { return nil, 0, errors.New("bad magic") }, "bad magic"},
		{"panic", func(b []byte) (map[string]int, int, error) { _ = b[len(b)+1]; return nil, 0, nil }, "describing the blob panicked: runtime error: index out of range"},
	} {
		g := SummarizeBlob(c.fn, []byte{1})
		if !strings.Contains(g.Error, c.want) || g.Ops == nil {
			t.Errorf("%s: SummarizeBlob = %+v; want an error containing %q and non-nil ops", c.name, g, c.want)
		}
	}
	g := SummarizeBlob(func([]byte) (map[string]int, int, error) { return map[string]int{"XNNAdd": 2, "XNNConv2d": 1}, 7, nil }, nil)
	if g.Error != "" || g.Nodes != 3 || g.Values != 7 || g.Ops["XNNAdd"] != 2 {
		t.Errorf("SummarizeBlob = %+v; want 3 nodes, 7 values", g)
	}
}

// TestByBackendMatchesOfficial: for every official lowering of testdata/vulkan and
// testdata/mixed whose .pte is committed, the by-backend rows have the official delegates of each backend id (in the order
// the first of each appears), the calls, blob bytes and operations add up to the delegates', and
// the portable row counts the kernel calls.
func TestByBackendMatchesOfficial(t *testing.T) {
	files, _ := filepath.Glob(testutil.Testdata(t, "vulkan", "*", "*.json"))
	more, _ := filepath.Glob(testutil.Testdata(t, "mixed", "*", "*.json"))
	files = append(files, more...)
	mixed := 0
	for _, js := range files {
		pteFile := strings.TrimSuffix(js, ".json") + ".pte"
		if _, err := os.Stat(pteFile); err != nil {
			continue
		}
		var rec struct {
			Delegates []string `json:"delegates"`
		}
		raw, err := os.ReadFile(js)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		f, err := pte.Open(pteFile)
		if err != nil {
			t.Fatal(err)
		}
		m := Summarize(f, pteFile, describers).Methods[0]
		f.Close()
		want, order := map[string]int{}, []string{}
		for _, id := range rec.Delegates {
			if want[id] == 0 {
				order = append(order, id)
			}
			want[id]++
		}
		var got []string
		calls, bytes, nodes := 0, 0, 0
		for _, b := range m.Backends {
			got = append(got, b.BackendID)
			if b.Delegates != want[b.BackendID] {
				t.Errorf("%s: %s has %d delegates, official %d", pteFile, b.BackendID, b.Delegates, want[b.BackendID])
			}
			if b.Nodes == nil {
				t.Errorf("%s: %s's blobs were not read", pteFile, b.BackendID)
				continue
			}
			calls, bytes, nodes = calls+b.Calls, bytes+b.BlobBytes, nodes+*b.Nodes
		}
		if strings.Join(got, ",") != strings.Join(order, ",") {
			t.Errorf("%s: backends %v, official %v", pteFile, got, order)
		}
		wantBytes, wantNodes := 0, 0
		for _, d := range m.Delegates {
			wantBytes += d.Size
			wantNodes += d.Graph.Nodes
		}
		if calls != m.DelegateCalls || bytes != wantBytes || nodes != wantNodes || m.Portable.KernelCalls != m.KernelCalls {
			t.Errorf("%s: rows have %d calls, %d bytes, %d operations, %d kernel calls; the method %d, %d, %d, %d",
				pteFile, calls, bytes, nodes, m.Portable.KernelCalls, m.DelegateCalls, wantBytes, wantNodes, m.KernelCalls)
		}
		if len(order) == 2 {
			mixed++
		}
	}
	if mixed == 0 {
		t.Error("no committed official file has delegates of two backends")
	}
}
