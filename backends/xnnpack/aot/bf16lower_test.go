package aot_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/internal/testutil"
)

// TestBF16LowerMatchesOfficial: every bfloat16 program of testdata/bf16 (made by
// tools/reference/generate_bf16_fixtures.py) is partitioned as the official XnnpackPartitioner
// partitions it, by default (every bf16 node declined: portable.pte has no delegate) and with
// EnableBF16 (enable_bf16=True), where each region compiles to the official XNNPACK graph: bf16
// values and constants, linear biases widened to fp32, every weight with the official SHA-256.
func TestBF16LowerMatchesOfficial(t *testing.T) {
	dirs, _ := filepath.Glob(testutil.Testdata(t, "bf16", "*", "model.pt2"))
	if len(dirs) == 0 {
		t.Fatal("no testdata/bf16/*/model.pt2 (run tools/reference/generate_bf16_fixtures.py)")
	}
	for _, pt2 := range dirs {
		dir := filepath.Dir(pt2)
		raw, err := os.ReadFile(filepath.Join(dir, "delegation.json"))
		if err != nil {
			t.Fatal(err)
		}
		type file struct {
			Delegates []string `json:"delegates"`
		}
		var rec struct {
			Portable file `json:"portable"`
			XNNPACK  file `json:"xnnpack"`
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			file   string
			enable bool
		}{{"portable", false}, {"xnnpack", true}} {
			t.Run(filepath.Base(dir)+"/"+c.file, func(t *testing.T) {
				plan := zooPlan(t, pt2, nil, &aot.Partitioner{EnableBF16: c.enable})
				want := len(rec.Portable.Delegates)
				if c.enable {
					want = len(rec.XNNPACK.Delegates)
				}
				if len(plan.Delegates) != want {
					t.Fatalf("%d delegates, official %d", len(plan.Delegates), want)
				}
				comparePreprocess(t, plan, filepath.Join(dir, c.file+".pte"))
			})
		}
	}
}
