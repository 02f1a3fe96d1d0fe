package lower_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/etgo/etgo/backends/all"

	"github.com/etgo/etgo/backends/xnnpack"
	xnnaot "github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/internal/zoo/zoorun"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/pte"
)

// lowerZoo lowers a zoo model as `etgo lower -o` does (recommended passes, the XNNPACK
// partitioner) and returns the .pte bytes and the plan.
func lowerZoo(t *testing.T, m zoo.Model) ([]byte, *partition.Plan) {
	t.Helper()
	recommended := xnnaot.Backend().TransformPasses()
	return lowerFile(t, m.PT2, lower.Options{
		Partitioners: []partition.Partitioner{&xnnaot.Partitioner{}}, TransformPasses: recommended})
}

// lowerFile lowers a .pt2 with opts to .pte bytes, failing the test on any error.
func lowerFile(t *testing.T, path string, opts lower.Options) ([]byte, *partition.Plan) {
	t.Helper()
	prog, err := pt2.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, opts)
	if err != nil {
		t.Fatal(err)
	}
	c, err := lower.ToExecuTorch(edge.Plan, all.Registry())
	if err != nil {
		t.Fatal(err)
	}
	data, err := pte.Write(c, pte.DefaultWriteOptions)
	if err != nil {
		t.Fatal(err)
	}
	return data, edge.Plan
}

// TestZooLoweredRuns: every zoo model lowered by etgo (pt2 → Edge → XNNPACK partition →
// preprocess → emission) has the official number of delegate calls, runs in etgo's runtime
// with outputs matching eager PyTorch (≤ 1e-4), and lowers to the same bytes twice.
func TestZooLoweredRuns(t *testing.T) {
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		data, plan := lowerZoo(t, m)
		if again, _ := lowerZoo(t, m); !bytes.Equal(data, again) {
			t.Error("lowering twice gave different bytes")
		}
		if len(plan.Delegates) != m.Delegation.NumDelegatedSubgraphs {
			t.Errorf("%d delegate calls, official %d", len(plan.Delegates), m.Delegation.NumDelegatedSubgraphs)
		}
		f, err := pte.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := executor.NewProgram(f, executor.Options{Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		zoorun.Check(t, prog, m, zoo.Eager)
	})
}

// TestToExecuTorchUnknownBackend: a delegate whose backend has no preprocess in this binary is
// refused, naming the backend.
func TestToExecuTorchUnknownBackend(t *testing.T) {
	m := zoo.Models(t)[0]
	prog, err := pt2.Open(m.PT2)
	if err != nil {
		t.Fatal(err)
	}
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: []partition.Partitioner{&xnnaot.Partitioner{}}})
	if err != nil {
		t.Fatal(err)
	}
	edge.Plan.Delegates[0].Spec.BackendID = "NoSuchBackend"
	if _, err := lower.ToExecuTorch(edge.Plan, all.Registry()); err == nil || !bytes.Contains([]byte(err.Error()), []byte("NoSuchBackend")) {
		t.Errorf("error %v, want one naming NoSuchBackend", err)
	}
}

// TestLoweredReport enforces testdata/lowered_report.json, written by
// tools/reference/check_lowered.py: every etgo-lowered zoo model loaded and ran in the official
// runtime with outputs within 1e-4 of eager PyTorch, with the official number of delegate calls
// and no more planned memory than the official file; and the report is about today's bytes
// (the sha256 it records is what etgo lowers now — rerun the script after changing lowering).
func TestLoweredReport(t *testing.T) {
	raw, err := os.ReadFile(testutil.Testdata(t, "lowered_report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Model           string   `json:"model"`
		Runtime         string   `json:"official_runtime"`
		SHA256          string   `json:"sha256"`
		MaxDiff         *float64 `json:"max_abs_diff_vs_eager"`
		Delegates       int      `json:"delegate_calls"`
		OfficialDelegs  int      `json:"official_delegate_calls"`
		Planned         int64    `json:"planned_bytes"`
		OfficialPlanned int64    `json:"official_planned_bytes"`
	}
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatal(err)
	}
	byName := map[string]int{}
	for i, r := range rows {
		byName[r.Model] = i
	}
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		i, ok := byName[m.Name]
		if !ok {
			t.Fatal("not in the report")
		}
		r := rows[i]
		if r.Runtime != "ok" || r.MaxDiff == nil || *r.MaxDiff > 1e-4 {
			t.Errorf("official runtime: %s, max abs diff %v", r.Runtime, r.MaxDiff)
		}
		if r.Delegates != r.OfficialDelegs {
			t.Errorf("%d delegate calls, official %d", r.Delegates, r.OfficialDelegs)
		}
		if r.Planned > r.OfficialPlanned {
			t.Errorf("planned %d bytes, official %d", r.Planned, r.OfficialPlanned)
		}
		data, _ := lowerZoo(t, m)
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != r.SHA256 {
			t.Errorf("etgo now lowers to different bytes than the report checked; rerun tools/reference/check_lowered.py")
		}
	})
}
