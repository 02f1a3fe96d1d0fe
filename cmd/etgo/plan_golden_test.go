package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// planGoldens are etgo lower's plan (text and JSON report) on zoo models that exercise what
// the plan reports: fragmentation and per-node reasons (split_delegation, transformer_encoder),
// dynamic shapes (dynamic_batch), dtype refusals (int_bool), per-op mode and no partitioner.
// The commands run from the repository root with repository-relative model paths, so the
// files hold no absolute path; --plan prints no timings.
var planGoldens = []struct {
	golden string
	args   []string
}{
	{"split_delegation.plan.txt", []string{"lower", "testdata/zoo/split_delegation/model.pt2", "--plan"}},
	{"split_delegation.plan.json", []string{"lower", "testdata/zoo/split_delegation/model.pt2", "--plan", "--json"}},
	{"transformer_encoder.plan.txt", []string{"lower", "testdata/zoo/transformer_encoder/model.pt2", "--plan"}},
	{"transformer_encoder.plan.json", []string{"lower", "testdata/zoo/transformer_encoder/model.pt2", "--plan", "--json"}},
	{"dynamic_batch.plan.txt", []string{"lower", "testdata/zoo/dynamic_batch/model.pt2", "--plan"}},
	{"dynamic_batch.plan.json", []string{"lower", "testdata/zoo/dynamic_batch/model.pt2", "--plan", "--json"}},
	{"int_bool.plan.txt", []string{"lower", "testdata/zoo/int_bool/model.pt2", "--plan"}},
	{"mlp.per-op.plan.txt", []string{"lower", "testdata/zoo/mlp/model.pt2", "--plan", "--per-op"}},
	{"conv_relu.none.plan.txt", []string{"lower", "testdata/zoo/conv_relu/model.pt2", "--plan", "--partitioner", "none"}},
	// Two backends and the portable kernels (testdata/mixed, the official lowering's model):
	// Vulkan's linears around XNNPACK's max over a dim and a portable cumsum.
	{"max_head.vulkan_xnnpack.plan.txt", []string{"lower", "testdata/mixed/max_head/model.pt2", "--plan", "--partitioner", "vulkan", "--partitioner", "xnnpack"}},
	{"max_head.vulkan_xnnpack.plan.json", []string{"lower", "testdata/mixed/max_head/model.pt2", "--plan", "--partitioner", "vulkan", "--partitioner", "xnnpack", "--json"}},
}

// TestPlanGoldens compares etgo lower --plan's output with the files in testdata/;
// go test ./cmd/etgo -run TestPlanGoldens -update rewrites them.
func TestPlanGoldens(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(testutil.RepoRoot(t))
	for _, tc := range planGoldens {
		t.Run(tc.golden, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tc.args, &stdout, &stderr); code != 0 {
				t.Fatalf("etgo %s: exit %d\n%s", strings.Join(tc.args, " "), code, &stderr)
			}
			compareGolden(t, filepath.Join(dir, tc.golden), stdout.Bytes())
		})
	}
	// The report lower -o writes with --report is the same document as --plan --json.
	t.Run("split_delegation.report.json", func(t *testing.T) {
		report := filepath.Join(t.TempDir(), "report.json")
		args := []string{"lower", "testdata/zoo/split_delegation/model.pt2", "-o", filepath.Join(t.TempDir(), "out.pte"), "--report", report}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("etgo %s: exit %d\n%s", strings.Join(args, " "), code, &stderr)
		}
		got, err := os.ReadFile(report)
		if err != nil {
			t.Fatal(err)
		}
		compareGolden(t, filepath.Join(dir, "split_delegation.plan.json"), got)
	})
}

// compareGolden fails the test where got differs from the golden file, naming the first
// differing line; with -update it writes got there instead (the report run does not, as its
// golden belongs to --plan --json).
func compareGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update && !strings.HasSuffix(t.Name(), ".report.json") {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/etgo -update creates it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			t.Errorf("differs from %s at line %d (go test ./cmd/etgo -update rewrites it):\n got: %q\nwant: %q", golden, i+1, gl, wl)
			return
		}
	}
}
