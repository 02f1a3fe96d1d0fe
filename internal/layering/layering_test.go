package layering

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/etgo/etgo/"

type pkg struct {
	ImportPath string
	Imports    []string // direct, non-test
	Deps       []string // transitive, non-test
}

// load lists the module's packages with their direct and transitive imports.
func load(t *testing.T) map[string]pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps=false", "-json=ImportPath,Imports,Deps", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]pkg{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		key := strings.TrimPrefix(p.ImportPath, module)
		if p.ImportPath == strings.TrimSuffix(module, "/") {
			key = "." // package etgo, the Module API
		}
		pkgs[key] = p
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

// under reports whether package path p (module-relative) is dir or below it.
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

func local(imports []string) []string {
	var out []string
	for _, i := range imports {
		if strings.HasPrefix(i, module) {
			out = append(out, strings.TrimPrefix(i, module))
		}
	}
	return out
}

// aheadOfTime are the packages that lower a model, which nothing run-time may link.
var aheadOfTime = []string{"ir", "partition", "passes", "emit", "lower", "frontend", "backends/all", "backends/transforms", "backends/xnnpack/aot", "backends/vulkan/aot"}

// isAheadOfTime also counts package backends itself (the ahead-of-time contract), not its
// subdirectories.
func isAheadOfTime(p string) bool {
	return p == "backends" || slices.ContainsFunc(aheadOfTime, func(d string) bool { return under(p, d) })
}

func TestLayering(t *testing.T) {
	pkgs := load(t)
	need := func(p string) pkg {
		t.Helper()
		q, ok := pkgs[p]
		if !ok {
			t.Fatalf("package %s not found: update the rules with the tree", p)
		}
		return q
	}

	// A runtime-only binary: the Module API, the runtime, its kernels and the backends' run-time
	// sides.
	for _, p := range []string{".", "executor", "kernels/portable", "kernels/optimized", "kernels/prim", "kernels/quantized", "kernels/unbox", "backends/builtin", "backends/xnnpack", "backends/xnnpack/xnngraph", "backends/vulkan/vkgraph", "internal/gemm", "internal/workpool"} {
		for _, d := range local(need(p).Deps) {
			if isAheadOfTime(d) {
				t.Errorf("run-time package %s links the ahead-of-time package %s", p, d)
			}
			// The schema tables (and the generator that reads them) serve lowering and code
			// generation; the kernels' unboxing is generated code, so nothing run-time needs them.
			if under(d, "internal/opschema") || under(d, "internal/unboxgen") {
				t.Errorf("run-time package %s links the operator-schema tables (%s)", p, d)
			}
		}
	}

	// The graph format links only its schema and the verifier.
	for _, d := range local(need("backends/xnnpack/xnngraph").Deps) {
		if d != "backends/xnnpack/schema" && d != "internal/fbverify" {
			t.Errorf("backends/xnnpack/xnngraph links %s (it may link its schema and internal/fbverify only)", d)
		}
	}

	for _, d := range local(need("backends/vulkan/vkgraph").Deps) {
		if d != "backends/vulkan/schema" && d != "internal/fbverify" {
			t.Errorf("backends/vulkan/vkgraph links %s (it may link its schema and internal/fbverify only)", d)
		}
	}

	// The ahead-of-time side links nothing of the run time.
	for _, d := range local(need("backends/xnnpack/aot").Deps) {
		if d == "executor" || d == "backends/xnnpack" || under(d, "kernels") || d == "internal/gemm" || d == "internal/workpool" {
			t.Errorf("backends/xnnpack/aot links the run-time package %s", d)
		}
	}

	// The shared rewrites serve every backend, so they link none.
	for _, d := range local(need("backends/transforms").Deps) {
		if under(d, "backends") {
			t.Errorf("backends/transforms links the backend package %s", d)
		}
	}

	// Generic layers name no backend: no direct import of a backend's packages.
	for p, q := range pkgs {
		generic := slices.ContainsFunc([]string{"lower", "passes", "partition", "emit", "ir", "frontend", "devtools", "internal/zoo", "cmd"}, func(d string) bool { return under(p, d) })
		if !generic {
			continue
		}
		for _, i := range local(q.Imports) {
			if under(i, "backends") && i != "backends" && i != "backends/all" {
				t.Errorf("generic package %s imports the backend package %s (reach it through package backends or backends/all)", p, i)
			}
		}
	}

	// inspect reads blobs through the describers it is given, so it links no backend at all.
	for _, d := range local(need("devtools/inspect").Deps) {
		if under(d, "backends") || d == "internal/gemm" {
			t.Errorf("devtools/inspect links %s", d)
		}
	}
}
