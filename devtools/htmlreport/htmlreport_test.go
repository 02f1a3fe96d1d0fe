package htmlreport_test

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/devtools/htmlreport"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// plan lowers a zoo model as `etgo lower` does, with the default partitioners.
func plan(t *testing.T, model string) *partition.Plan {
	t.Helper()
	prog, err := pt2.Open(testutil.Testdata(t, "zoo", model, "model.pt2"))
	if err != nil {
		t.Fatal(err)
	}
	parts, recommended, err := all.Registry().Partitioners(all.DefaultOrder, backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: parts, TransformPasses: recommended})
	if err != nil {
		t.Fatal(err)
	}
	return edge.Plan
}

// TestPageShowsEverything: for every zoo model, the page's graph has a box per operator,
// input and output, each region has its row and colour, each fallback operator its reasons,
// and the SVG is well-formed XML.
func TestPageShowsEverything(t *testing.T) {
	models, _ := filepath.Glob(testutil.Testdata(t, "zoo", "*", "model.pt2"))
	if len(models) < 10 {
		t.Fatalf("only %d zoo models", len(models))
	}
	for _, path := range models {
		model := filepath.Base(filepath.Dir(path))
		t.Run(model, func(t *testing.T) {
			p := plan(t, model)
			var buf bytes.Buffer
			if err := htmlreport.Write(&buf, htmlreport.Report{Title: model, Plan: p}); err != nil {
				t.Fatal(err)
			}
			page := buf.String()
			svg := regexp.MustCompile(`(?s)<svg .*</svg>`).FindString(page)
			if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
				t.Fatalf("the SVG is not well-formed: %v", err)
			}
			for _, d := range p.Decisions {
				if !strings.Contains(svg, fmt.Sprintf(`data-node="%s"`, d.Node)) {
					t.Errorf("no box for %s", d.Node)
				}
				if d.Delegate < 0 {
					for _, x := range d.Declines {
						if !strings.Contains(page, string(x.Reason)) {
							t.Errorf("%s's reason %s is not shown", d.Node, x.Reason)
						}
					}
				}
			}
			if got, want := strings.Count(page, `<tr class="region">`), len(p.Delegates); got != want {
				t.Errorf("%d region rows, %d delegates", got, want)
			}
			fallback := 0
			for _, d := range p.Decisions {
				if d.Delegate < 0 {
					fallback++
				}
			}
			if got := strings.Count(page, `<tr class="fallback">`); got != fallback {
				t.Errorf("%d fallback rows, %d fallback operators", got, fallback)
			}
			if !strings.Contains(page, p.Summary()) {
				t.Error("the summary is missing")
			}
		})
	}
}

// TestGolden pins split_delegation's page (three regions around cumsum and erf); -update
// rewrites it.
func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := htmlreport.Write(&buf, htmlreport.Report{Title: "split_delegation", Plan: plan(t, "split_delegation")}); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "split_delegation.html")
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
	if buf.String() != string(want) {
		t.Error("the page differs from testdata/split_delegation.html (go test -update rewrites it)")
	}
}
