package htmlreport_test

import (
	"bytes"
	"encoding/xml"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/devtools/etdump"
	"github.com/etgo/etgo/devtools/htmlreport"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/pte"
)

// TestProgramPage draws split_delegation's official program with the official runtime's ETDump
// of two runs: every instruction has its box and its time, each delegate its blob description
// and the XNNPACK operators that ran inside it.
func TestProgramPage(t *testing.T) {
	f, err := pte.Open(testutil.Testdata(t, "zoo", "split_delegation", "xnnpack.pte"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	prof, err := etdump.ReadFile(filepath.Join("..", "etdump", "testdata", "official_split_delegation.etdp"))
	if err != nil {
		t.Fatal(err)
	}
	for _, withProfile := range []bool{true, false} {
		r := htmlreport.ProgramReport{Title: "split_delegation", File: f, Method: "forward", Describe: all.Registry().BlobDescribers()}
		if withProfile {
			r.Profile = prof
		}
		var buf bytes.Buffer
		if err := htmlreport.WriteProgram(&buf, r); err != nil {
			t.Fatal(err)
		}
		page := buf.String()
		svg := regexp.MustCompile(`(?s)<svg .*</svg>`).FindString(page)
		if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
			t.Fatalf("the SVG is not well-formed: %v", err)
		}
		for i := 0; i < 5; i++ {
			if !strings.Contains(svg, `data-node="instruction 0:`+string(rune('0'+i))+`"`) {
				t.Errorf("no box for instruction %d", i)
			}
		}
		if got := strings.Count(page, `<h3 class="delegate">`); got != 3 {
			t.Errorf("%d delegate sections, want 3", got)
		}
		for _, want := range []string{"1 node (1 XNNFullyConnected), 4 values", "2 nodes (1 XNNDiv, 1 XNNFullyConnected), 6 values"} {
			if !strings.Contains(page, want) {
				t.Errorf("no blob description %q", want)
			}
		}
		hasTimes := strings.Contains(page, `<table id="times">`)
		if hasTimes != withProfile {
			t.Errorf("profile %v, time table %v", withProfile, hasTimes)
		}
		if withProfile {
			if got := strings.Count(page, "<tr><td>0:"); got != 5 {
				t.Errorf("%d instruction rows in the time table, want 5", got)
			}
			for _, op := range []string{"Fully Connected (NC, F32) GEMM", "Divide (ND)", "Multiply (ND)"} {
				if !strings.Contains(page, "<code>"+op+"</code>") {
					t.Errorf("no time for XNNPACK's %s", op)
				}
			}
		}
	}
}
