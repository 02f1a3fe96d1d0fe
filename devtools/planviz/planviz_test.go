package planviz_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	vkaot "github.com/etgo/etgo/backends/vulkan/aot"
	"github.com/etgo/etgo/devtools/planviz"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// lowerWith lowers a .pt2 with the named partitioners and their transform passes; a Vulkan
// partitioner takes blocklist (the official vulkan_noconv_xnnpack fixtures block convolutions).
func lowerWith(t *testing.T, path string, names []string, blocklist []string) *partition.Plan {
	t.Helper()
	prog, err := pt2.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	parts, transform, err := all.Registry().Partitioners(names, backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		if n == "vulkan" {
			parts[i] = vkaot.New(vkaot.Options{OperatorBlocklist: blocklist})
		}
	}
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: parts, TransformPasses: transform})
	if err != nil {
		t.Fatal(err)
	}
	return edge.Plan
}

// TestWriteDOT draws split_delegation's plan (three XNNPACK regions around cumsum and erf) and
// residual_cnn's with convolutions left to XNNPACK behind Vulkan (regions of both backends
// alternating, a portable mean), and compares them with the golden files; go test -update
// rewrites them. Every region of a backend has that backend's colour, and the legend has a row
// per backend and one for the portable kernels.
func TestWriteDOT(t *testing.T) {
	for _, tc := range []struct {
		name, model string
		names       []string
		blocklist   []string
		want        []string
		colours     map[string]int // backend -> regions drawn
	}{
		{"split_delegation", "split_delegation", []string{"xnnpack"}, nil, []string{
			`label="XnnpackBackend #0: 2 operators"`, `label="XnnpackBackend #2: 4 operators"`,
			"cumsum\naten.cumsum\n(portable)", `penwidth=2`, `"output 0\nfloat32[4,8]"`,
			`"portable kernels: 2 of 10 operators (20%), `,
		}, map[string]int{"XnnpackBackend": 3}},
		{"residual_cnn_vulkan_noconv_xnnpack", "residual_cnn", []string{"vulkan", "xnnpack"}, []string{"aten.convolution.default"}, []string{
			`label="XnnpackBackend #3: 1 operators"`, `label="VulkanBackend #0: 3 operators"`,
			"mean\naten.mean.dim\n(portable)", `"VulkanBackend: 3 regions, `, `"XnnpackBackend: 3 regions, 3 of 13 operators (23.1%), `,
		}, map[string]int{"XnnpackBackend": 3, "VulkanBackend": 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := lowerWith(t, testutil.Testdata(t, "zoo", tc.model, "model.pt2"), tc.names, tc.blocklist)
			var buf bytes.Buffer
			if err := planviz.WriteDOT(&buf, tc.name, plan); err != nil {
				t.Fatal(err)
			}
			got := buf.String()
			for _, want := range tc.want {
				if !strings.Contains(got, strings.ReplaceAll(want, "\n", `\n`)) {
					t.Errorf("the graph lacks %q", want)
				}
			}
			// One fill colour per backend, the legend's among them.
			fills := map[string]map[string]int{}
			for _, m := range regexp.MustCompile(`label="(\w+) #\d+: \d+ operators"; style="rounded,filled"; fillcolor="(#[0-9a-f]+)"`).FindAllStringSubmatch(got, -1) {
				if fills[m[1]] == nil {
					fills[m[1]] = map[string]int{}
				}
				fills[m[1]][m[2]]++
			}
			seen := map[string]string{}
			for backend, n := range tc.colours {
				if len(fills[backend]) != 1 {
					t.Errorf("%s's regions are filled with %v, want one colour", backend, fills[backend])
					continue
				}
				for c, k := range fills[backend] {
					if k != n {
						t.Errorf("%s: %d regions drawn, want %d", backend, k, n)
					}
					if other, dup := seen[c]; dup {
						t.Errorf("%s and %s share colour %s", backend, other, c)
					}
					seen[c] = backend
					if !regexp.MustCompile(`legend\d \[label="` + backend + `: [^"]*", fillcolor="` + c + `"\]`).MatchString(got) {
						t.Errorf("the legend has no %s row in %s", backend, c)
					}
				}
			}
			golden := filepath.Join("testdata", tc.name+".dot")
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
		})
	}
}
