package aot_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/internal/testutil"
)

// fp16Dirs are the half-precision fixtures (testdata/fp16, made by
// tools/reference/generate_fp16_fixtures.py): model.half() exported and lowered by the
// official XnnpackPartitioner, whose configs take float16 as they take float32.
func fp16Dirs(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(testutil.Testdata(t, "fp16", "*", "model.pt2"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no testdata/fp16/*/model.pt2 (run tools/reference/generate_fp16_fixtures.py): %v", err)
	}
	for i, d := range dirs {
		dirs[i] = filepath.Dir(d)
	}
	return dirs
}

// TestFP16LowerMatchesOfficial: every fp16 program is partitioned into the official number of
// delegates, and each region compiles to the official XNNPACK graph: fp16 values, linear
// weights and biases kept fp16, convolution filters and biases widened to fp32 (op_conv2d's
// force_fp32), every weight with the official SHA-256.
func TestFP16LowerMatchesOfficial(t *testing.T) {
	for _, dir := range fp16Dirs(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, "delegation.json"))
			if err != nil {
				t.Fatal(err)
			}
			var rec struct {
				Delegates []string `json:"delegates"`
			}
			if err := json.Unmarshal(raw, &rec); err != nil {
				t.Fatal(err)
			}
			plan := zooPlan(t, filepath.Join(dir, "model.pt2"), nil, &aot.Partitioner{})
			if len(plan.Delegates) != len(rec.Delegates) {
				t.Fatalf("%d delegates, official %d", len(plan.Delegates), len(rec.Delegates))
			}
			comparePreprocess(t, plan, filepath.Join(dir, "xnnpack.pte"))
		})
	}
}
