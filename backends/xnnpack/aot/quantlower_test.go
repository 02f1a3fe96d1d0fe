package aot_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo"
)

// quantModels are the quantized fixtures (testdata/quantlower, made by
// tools/reference/generate_quant_lower_fixtures.py): PT2E static, QAT, dynamic and torchao
// programs in the zoo's layout.
// ETGO_QUANTLOWER_EXTRA names a folder of more such programs made on demand (the larger zoo
// models: generate_quant_lower_fixtures.py --out DIR --only zoo_mobilenet_v2_small,…).
func quantModels(t *testing.T) []zoo.Model {
	t.Helper()
	models, err := zoo.Load(testutil.Testdata(t, "quantlower"))
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("ETGO_QUANTLOWER_EXTRA"); dir != "" {
		more, err := zoo.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, more...)
	}
	return models
}

// aoModels are the torchao programs (testdata/quantlower_ao): 8da4w, groups 32 and 128. The
// official to_edge refuses them without a partitioner, so they have no portable.pte.
func aoModels(t *testing.T) []zoo.Model {
	t.Helper()
	models, err := zoo.LoadXnnpackOnly(testutil.Testdata(t, "quantlower_ao"))
	if err != nil {
		t.Fatal(err)
	}
	return models
}

// TestQuantPlanMatchesOfficial: every quantized program is partitioned as the official
// XnnpackPartitioner partitions it: the same number of delegates, the same operators (q/dq
// included) in each, and the same delegated and non-delegated count per operator.
func TestQuantPlanMatchesOfficial(t *testing.T) {
	for _, m := range append(quantModels(t), aoModels(t)...) {
		t.Run(m.Name, func(t *testing.T) {
			plan := zooPlan(t, m.PT2, nil, &aot.Partitioner{})
			d := m.Delegation
			if len(plan.Delegates) != d.NumDelegatedSubgraphs {
				t.Errorf("%d delegates, official %d", len(plan.Delegates), d.NumDelegatedSubgraphs)
			}
			if got := zoo.Breakdown(plan); !maps.Equal(got, d.ByOperator) {
				t.Errorf("per-operator counts\n got %v\nwant %v", got, d.ByOperator)
			}
			if g, w := regionTargets(plan), officialRegionTargets(d); g != w {
				t.Errorf("regions\n got %s\nwant %s", g, w)
			}
		})
	}
}

// TestQuantPreprocessMatchesOfficial: every region of every quantized program compiles to the
// official XNNPACK graph: the same nodes and parameters, the same values with the same
// datatypes and quantization parameters (scales, zero points, channel axes, block sizes), and
// weights (quantized codes, int32 biases, scale buffers) with the same SHA-256.
// Dynamically quantized linears (dyn_*: qdint8 activations converted per row, qcint8 weights,
// fp32 bias) included, 3-D and with a symbolic dim (at its upper bound, as the official does).
func TestQuantPreprocessMatchesOfficial(t *testing.T) {
	for _, m := range append(quantModels(t), aoModels(t)...) {
		t.Run(m.Name, func(t *testing.T) {
			comparePreprocess(t, zooPlan(t, m.PT2, nil, &aot.Partitioner{}), m.Xnnpack)
		})
	}
}

// TestQuant4BitEdgeMatchesOfficial: 4-bit programs the official toolchain lowers but its
// runtime refuses (a 1×1 convolution's qcint4 filter) or misreads (an odd input-channel count)
// (testdata/quantlower_edge, delegation.json "official_runtime"): etgo's plan and graph equal
// the official ones all the same; etgo's runtime refuses them by name.
func TestQuant4BitEdgeMatchesOfficial(t *testing.T) {
	dir := testutil.Testdata(t, "quantlower_edge")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			d := filepath.Join(dir, e.Name())
			raw, err := os.ReadFile(filepath.Join(d, "delegation.json"))
			if err != nil {
				t.Fatal(err)
			}
			var del zoo.Delegation
			if err := json.Unmarshal(raw, &del); err != nil {
				t.Fatal(err)
			}
			plan := zooPlan(t, filepath.Join(d, "model.pt2"), nil, &aot.Partitioner{})
			if len(plan.Delegates) != del.NumDelegatedSubgraphs {
				t.Errorf("%d delegates, official %d", len(plan.Delegates), del.NumDelegatedSubgraphs)
			}
			if got := zoo.Breakdown(plan); !maps.Equal(got, del.ByOperator) {
				t.Errorf("per-operator counts\n got %v\nwant %v", got, del.ByOperator)
			}
			comparePreprocess(t, plan, filepath.Join(d, "xnnpack.pte"))
			var verdict struct {
				Runtime string `json:"official_runtime"`
			}
			if err := json.Unmarshal(raw, &verdict); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(verdict.Runtime, "refuses") {
				// What the official runtime cannot load, etgo's refuses at load too.
				if err := loadXNNPACK(filepath.Join(d, "xnnpack.pte")); err == nil {
					t.Errorf("etgo's runtime loads the official file; the official runtime %s", verdict.Runtime)
				}
			}
		})
	}
}

// loadXNNPACK loads a program's forward method with the XNNPACK backend (no kernels: the
// fixtures' methods are one delegate call), returning the load error.
func loadXNNPACK(path string) error {
	reg := executor.NewRegistry()
	if err := xnnpack.Register(reg); err != nil {
		return err
	}
	p, err := executor.Open(path, executor.Options{Registry: reg})
	if err != nil {
		return err
	}
	defer p.Close()
	m, err := p.LoadMethod("forward")
	if err != nil {
		return err
	}
	m.Close()
	return nil
}

// TestQuantRefusedAsOfficial: quantized programs the official toolchain refuses to lower
// (testdata/quantlower_refused, refusal.json): a 4-bit filter that does not squeeze to 2-d
// (convert_to_qc4w asserts), groupwise 8-bit weights (only 4-bit groups). etgo's partitioner
// takes the same region, as the official one does before preprocess, and its preprocess refuses
// it naming the same check.
func TestQuantRefusedAsOfficial(t *testing.T) {
	// Each official assert this test knows, and what etgo's refusal must say for it (from the
	// official message's submatches).
	known := []struct {
		official *regexp.Regexp
		etgo     func(m []string) []string
	}{
		{regexp.MustCompile(`convert_to_qc4w: expecting input tensor to be 2d, got (\d+)`),
			func(m []string) []string { return []string{"convert_to_qc4w", "have " + m[1] + " dims"} }},
		{regexp.MustCompile(`Only 4b group quantization is supported`),
			func([]string) []string { return []string{"only 4-bit group quantization is supported"} }},
	}
	dir := testutil.Testdata(t, "quantlower_refused")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			d := filepath.Join(dir, e.Name())
			raw, err := os.ReadFile(filepath.Join(d, "refusal.json"))
			if err != nil {
				t.Fatal(err)
			}
			var ref struct {
				OfficialError string `json:"official_error"`
			}
			if err := json.Unmarshal(raw, &ref); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, k := range known {
				if m := k.official.FindStringSubmatch(ref.OfficialError); m != nil {
					want = k.etgo(m)
				}
			}
			if want == nil {
				t.Fatalf("refusal.json: official error %q is not one this test knows", ref.OfficialError)
			}
			plan := zooPlan(t, filepath.Join(d, "model.pt2"), nil, &aot.Partitioner{})
			if len(plan.Delegates) == 0 {
				t.Fatal("no delegate: the official partitioner takes the region and fails in preprocess")
			}
			var refused error
			for i := range plan.Delegates {
				prog, err := plan.Delegates[i].Program(plan.Graph)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := aot.Preprocess(prog); err != nil {
					refused = err
					break
				}
			}
			if refused == nil {
				t.Fatalf("etgo preprocessed every delegate; the official toolchain refused: %s", ref.OfficialError)
			}
			for _, w := range want {
				if !strings.Contains(refused.Error(), w) {
					t.Errorf("etgo's refusal %q does not say %q (official: %s)", refused, w, ref.OfficialError)
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("testdata/quantlower_refused holds no program")
	}
}
