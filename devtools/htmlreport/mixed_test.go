package htmlreport_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	vkaot "github.com/etgo/etgo/backends/vulkan/aot"
	"github.com/etgo/etgo/devtools/htmlreport"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/pte"
)

// mixedPlan lowers residual_cnn as the official vulkan_noconv_xnnpack fixture was:
// [VulkanPartitioner(operator_blocklist=[convolution]), XnnpackPartitioner()], regions of both
// backends alternating and a portable mean.
func mixedPlan(t *testing.T) *partition.Plan {
	t.Helper()
	prog, err := pt2.Open(testutil.Testdata(t, "zoo", "residual_cnn", "model.pt2"))
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

// backendColours checks that every box of a delegated instruction or operator is filled with
// its backend's colour, that the backends' colours differ, and returns them. boxes are
// (backend, fill) pairs read from the page.
func backendColours(t *testing.T, boxes [][2]string) map[string]string {
	t.Helper()
	colour := map[string]string{}
	for _, b := range boxes {
		if c, ok := colour[b[0]]; ok && c != b[1] {
			t.Errorf("%s is drawn in %s and %s", b[0], c, b[1])
		}
		colour[b[0]] = b[1]
	}
	seen := map[string]string{}
	for backend, c := range colour {
		if other, dup := seen[c]; dup {
			t.Errorf("%s and %s share colour %s", backend, other, c)
		}
		seen[c] = backend
	}
	return colour
}

// TestMixedPlanPage: the plan page of a program with delegates of two backends colours every
// region by its backend, has a legend row and a coverage row per backend in that colour, and the
// portable row; the coverage rows add up to the graph. testdata/residual_cnn_mixed.html pins it
// (-update rewrites it).
func TestMixedPlanPage(t *testing.T) {
	p := mixedPlan(t)
	var buf bytes.Buffer
	if err := htmlreport.Write(&buf, htmlreport.Report{Title: "residual_cnn", Plan: p}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	var boxes [][2]string
	box := regexp.MustCompile(`<title>[^<]*delegate \d+ \((\w+)\)[^<]*</title><rect [^>]*fill="(#[0-9a-f]+)"`)
	for _, m := range box.FindAllStringSubmatch(page, -1) {
		boxes = append(boxes, [2]string{m[1], m[2]})
	}
	if len(boxes) != 12 {
		t.Errorf("%d delegated boxes, want 12", len(boxes))
	}
	colour := backendColours(t, boxes)
	if len(colour) != 2 {
		t.Fatalf("backends drawn: %v, want VulkanBackend and XnnpackBackend", colour)
	}
	for backend, c := range colour {
		if !strings.Contains(page, `<span class="backend"><span class="swatch" style="background:`+c+`"></span> `+backend+` (delegates `) {
			t.Errorf("no legend row for %s in %s", backend, c)
		}
		if !regexp.MustCompile(`<tr class="backend"><td><span class="swatch" style="background:` + c + `"></span></td><td>` + backend + `</td>`).MatchString(page) {
			t.Errorf("no coverage row for %s in %s", backend, c)
		}
	}
	for _, want := range []string{`<tr class="portable">`, `<td>portable kernels</td><td>1 of 13</td>`, `<td>VulkanBackend</td><td>9 of 13</td>`, `<td>XnnpackBackend</td><td>3 of 13</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	golden(t, "residual_cnn_mixed.html", buf.Bytes())
}

// TestMixedProgramPage draws the official [Vulkan(no conv), XNNPACK] residual_cnn program: a
// by-backend table with both backends (their delegates as the file has them) and the portable
// kernels, and every delegate call's box in its backend's colour.
func TestMixedProgramPage(t *testing.T) {
	f, err := pte.Open(testutil.Testdata(t, "vulkan", "residual_cnn", "vulkan_noconv_xnnpack.pte"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	if err := htmlreport.WriteProgram(&buf, htmlreport.ProgramReport{Title: "residual_cnn", File: f, Method: "forward", Describe: all.Registry().BlobDescribers()}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	var boxes [][2]string
	box := regexp.MustCompile(`<title>chain 0 instruction \d+: (\w+) \(delegate \d+\)</title><rect [^>]*fill="(#[0-9a-f]+)"`)
	for _, m := range box.FindAllStringSubmatch(page, -1) {
		boxes = append(boxes, [2]string{m[1], m[2]})
	}
	if len(boxes) != 6 {
		t.Errorf("%d delegate call boxes, want 6", len(boxes))
	}
	colour := backendColours(t, boxes)
	for _, row := range []struct{ backend, rest string }{
		{"XnnpackBackend", "<td>3</td><td>3</td><td>2.9 KiB</td><td>9</td>"},
		{"VulkanBackend", "<td>3</td><td>3</td><td>5.0 KiB</td><td>9</td>"},
	} {
		want := `<span class="swatch" style="background:` + colour[row.backend] + `"></span></td>` + "\n<td>" + row.backend + "</td>" + row.rest
		if colour[row.backend] == "" || !strings.Contains(page, want) {
			t.Errorf("no by-backend row %q", want)
		}
	}
	if !strings.Contains(page, "<td>portable kernels</td><td>-</td><td>1</td><td>-</td><td>1 operators</td>") {
		t.Error("no portable row")
	}
	golden(t, "residual_cnn_mixed_program.html", buf.Bytes())
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the page differs from %s (go test -update rewrites it)", path)
	}
}
