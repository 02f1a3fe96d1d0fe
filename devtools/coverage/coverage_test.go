package coverage_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	vkaot "github.com/etgo/etgo/backends/vulkan/aot"
	"github.com/etgo/etgo/devtools/coverage"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/vktest"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
)

// lowerMixed lowers a zoo model as the official vulkan_noconv_xnnpack fixtures were:
// [VulkanPartitioner(operator_blocklist=[convolution]), XnnpackPartitioner()] with XNNPACK's
// transform passes.
func lowerMixed(t *testing.T, model string) *partition.Plan {
	t.Helper()
	prog, err := pt2.Open(testutil.Testdata(t, "zoo", model, "model.pt2"))
	if err != nil {
		t.Fatal(err)
	}
	parts, transform, err := all.Registry().Partitioners([]string{"vulkan", "xnnpack"}, backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	parts[0] = vkaot.New(vkaot.Options{OperatorBlocklist: []string{"aten.convolution.default"}})
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: parts, TransformPasses: transform})
	if err != nil {
		t.Fatal(err)
	}
	return edge.Plan
}

// TestMixedMatchesOfficial: for every official lowering with delegates of two backends, the
// table has each backend's official region and operator counts (getitems aside: etgo's graph
// keeps multiple outputs on their node) and the official operators left outside as its portable
// row; the rows add up to the graph.
func TestMixedMatchesOfficial(t *testing.T) {
	mixed := 0
	for _, l := range vktest.Lowerings(t) {
		if l.Variant != "vulkan_noconv_xnnpack" || l.Error != "" {
			continue
		}
		t.Run(l.Model, func(t *testing.T) {
			type want struct{ regions, operators int }
			official := map[string]*want{}
			var order []string
			for _, r := range l.Regions {
				w := official[r.BackendID]
				if w == nil {
					w = &want{}
					official[r.BackendID] = w
					order = append(order, r.BackendID)
				}
				w.regions++
				for _, target := range r.Targets {
					if target != "getitem" {
						w.operators++
					}
				}
			}
			outside := 0
			for _, n := range l.NonDelegatedTargets {
				outside += n
			}
			tab := coverage.Of(lowerMixed(t, l.Model))
			if got := strings.Join(tab.BackendIDs(), ","); got != strings.Join(order, ",") {
				t.Errorf("backends %s, official %s", got, strings.Join(order, ","))
			}
			for _, s := range tab.Backends {
				if w := official[s.BackendID]; w == nil || s.Regions != w.regions || s.Operators != w.operators {
					t.Errorf("%s: %d regions, %d operators; official %+v", s.BackendID, s.Regions, s.Operators, w)
				}
			}
			if tab.Portable.Operators != outside {
				t.Errorf("portable: %d operators, official %d outside the delegates", tab.Portable.Operators, outside)
			}
			ops, flops := 0, int64(0)
			for _, s := range tab.Rows() {
				ops += s.Operators
				flops += s.FLOPs
			}
			if ops != tab.Operators || flops != tab.FLOPs {
				t.Errorf("rows add up to %d operators, %d FLOPs; the graph has %d, %d", ops, flops, tab.Operators, tab.FLOPs)
			}
			if len(official) == 2 {
				mixed++
			}
		})
	}
	if mixed == 0 {
		t.Error("no official lowering had delegates of two backends")
	}
}

// TestWriteText: one line per backend and the portable row, each with its count and work share.
func TestWriteText(t *testing.T) {
	tab := coverage.Table{Operators: 10, FLOPs: 1000, Portable: coverage.Share{BackendID: coverage.Portable, Operators: 2, FLOPs: 10},
		Backends: []coverage.Share{{BackendID: "VulkanBackend", Regions: 2, Operators: 3, FLOPs: 90}, {BackendID: "XnnpackBackend", Regions: 1, Operators: 5, FLOPs: 900}}}
	var b bytes.Buffer
	tab.WriteText(&b)
	want := `  by backend           regions          operators             estimated work
  VulkanBackend              2      3/10      30%         90 FLOP         9%
  XnnpackBackend             1      5/10      50%        900 FLOP        90%
  portable                   -      2/10      20%         10 FLOP         1%
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestColours: one colour per backend by sorted id, whatever the number of regions or their order.
func TestColours(t *testing.T) {
	c := coverage.Colours([]string{"B", "A", "B", "C"}, []string{"1", "2"})
	if c["A"] != "1" || c["B"] != "2" || c["C"] != "1" || len(c) != 3 {
		t.Errorf("colours %v", c)
	}
}

// TestMixedFixtures: etgo lowers testdata/mixed's models (tools/reference/generate_mixed_backends.py)
// into the official delegates, backend by backend (each region's targets, getitems counted as FX
// has them), leaves the official operators to the portable kernels, and the coverage rows are
// those regions' counts.
func TestMixedFixtures(t *testing.T) {
	noconv := []string{"aten.convolution.default"}
	for _, tc := range []struct {
		model, variant string
		blocklist      []string
	}{
		{"conv_head", "vulkan_noconv_xnnpack", noconv},
		{"conv_head", "vulkan_xnnpack", nil},
		{"max_head", "vulkan_xnnpack", nil},
	} {
		t.Run(tc.model+"/"+tc.variant, func(t *testing.T) {
			raw, err := os.ReadFile(testutil.Testdata(t, "mixed", tc.model, tc.variant+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var rec vktest.Lowering
			if err := json.Unmarshal(raw, &rec); err != nil {
				t.Fatal(err)
			}
			prog, err := pt2.Open(testutil.Testdata(t, "mixed", tc.model, "model.pt2"))
			if err != nil {
				t.Fatal(err)
			}
			parts, transform, err := all.Registry().Partitioners([]string{"vulkan", "xnnpack"}, backends.Options{})
			if err != nil {
				t.Fatal(err)
			}
			parts[0] = vkaot.New(vkaot.Options{OperatorBlocklist: tc.blocklist})
			edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: parts, TransformPasses: transform})
			if err != nil {
				t.Fatal(err)
			}
			plan := edge.Plan
			getitems := map[string]int{}
			for _, d := range plan.Decisions {
				getitems[d.Node] = d.Getitems
			}
			var got, want []string
			for _, d := range plan.Delegates {
				var ts []string
				for _, n := range d.Region.Nodes {
					ts = append(ts, n.Target)
					for range getitems[n.Name] {
						ts = append(ts, "getitem")
					}
				}
				slices.Sort(ts)
				got = append(got, d.Spec.BackendID+fmt.Sprint(ts))
			}
			official := map[string]Share{}
			for _, r := range rec.Regions {
				ts := slices.Clone(r.Targets)
				slices.Sort(ts)
				want = append(want, r.BackendID+fmt.Sprint(ts))
				s := official[r.BackendID]
				s.Regions++
				for _, target := range r.Targets {
					if target != "getitem" {
						s.Operators++
					}
				}
				official[r.BackendID] = s
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("regions\n got %v\nwant %v", got, want)
			}
			tab := coverage.Of(plan)
			if len(tab.Backends) != len(official) {
				t.Errorf("%d backends, official %d", len(tab.Backends), len(official))
			}
			for _, s := range tab.Backends {
				if w := official[s.BackendID]; s.Regions != w.Regions || s.Operators != w.Operators {
					t.Errorf("%s: %d regions, %d operators; official %d, %d", s.BackendID, s.Regions, s.Operators, w.Regions, w.Operators)
				}
			}
			outside := 0
			for _, n := range rec.NonDelegatedTargets {
				outside += n
			}
			if tab.Portable.Operators != outside {
				t.Errorf("portable: %d operators, official %d", tab.Portable.Operators, outside)
			}
		})
	}
}

// Share is coverage.Share without its work, for the official counts.
type Share struct{ Regions, Operators int }

// TestMixedManifest: every file of testdata/mixed is the one the generator recorded (a stale or
// hand-edited fixture fails here rather than as an unexplained plan difference).
func TestMixedManifest(t *testing.T) {
	raw, err := os.ReadFile(testutil.Testdata(t, "mixed", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Files map[string]struct {
			SHA256 string `json:"sha256"`
			Size   int    `json:"size"`
		} `json:"files"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Files) < 10 {
		t.Fatalf("the manifest lists %d files", len(m.Files))
	}
	for name, want := range m.Files {
		b, err := os.ReadFile(testutil.Testdata(t, "mixed", filepath.FromSlash(name)))
		if err != nil {
			t.Error(err)
			continue
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != want.SHA256 || len(b) != want.Size {
			t.Errorf("%s: %d bytes, sha256 %x; the manifest says %d, %s", name, len(b), sum, want.Size, want.SHA256)
		}
	}
}
