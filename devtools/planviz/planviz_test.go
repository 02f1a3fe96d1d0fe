package planviz_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	xnnaot "github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/devtools/planviz"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestWriteDOT draws split_delegation's plan (three XNNPACK regions around cumsum and erf) and
// compares it with the golden file; go test -update rewrites it.
func TestWriteDOT(t *testing.T) {
	prog, err := pt2.Open(testutil.Testdata(t, "zoo", "split_delegation", "model.pt2"))
	if err != nil {
		t.Fatal(err)
	}
	recommended := xnnaot.Backend().TransformPasses()
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{
		Partitioners: []partition.Partitioner{&xnnaot.Partitioner{}}, TransformPasses: recommended})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := planviz.WriteDOT(&buf, "split_delegation", edge.Plan); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		`label="XnnpackBackend #0: 2 operators"`, `label="XnnpackBackend #2: 4 operators"`,
		"cumsum\naten.cumsum\n(portable)", `penwidth=2`, `"output 0\nfloat32[4,8]"`,
	} {
		if !strings.Contains(got, strings.ReplaceAll(want, "\n", `\n`)) {
			t.Errorf("the graph lacks %q", want)
		}
	}
	golden := filepath.Join("testdata", "split_delegation.dot")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if got != string(want) {
		t.Errorf("differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
}
