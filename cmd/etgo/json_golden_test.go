package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/etgo/etgo/devtools/inspect"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/npy"
)

// timing matches the values that differ from run to run: times (every *_ms and *_us field, a
// profile's share of the run, and tune's spread of a candidate's runs), which the goldens hold as 0.
var timing = regexp.MustCompile(`("[a-z0-9_]+_(?:ms|us)"|"share"|"(?:cpu_)?spread"): -?[0-9][0-9.e+-]*`)

// buildFacts and buildModified match version's fields that depend on the toolchain and the
// checkout.
var (
	buildFacts    = regexp.MustCompile(`("(?:etgo|go|platform|vcs_revision|vcs_time)"): "[^"]*"`)
	buildModified = regexp.MustCompile(`("vcs_modified"): (?:true|false)`)
)

// TestJSONGoldens holds every command's --json document to a golden file in testdata/, on zoo
// models, from the repository root with repository-relative paths; the temporary directory a
// command writes to is $TMP there, and times are 0. go test ./cmd/etgo -run TestJSONGoldens
// -update rewrites them.
func TestJSONGoldens(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(testutil.RepoRoot(t))
	tmp := t.TempDir()
	// A tensor with what JSON has no number for: NaN, ±Inf.
	special, err := npy.FromValues([]int{5}, []float32{1.5, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), -0.25})
	if err != nil {
		t.Fatal(err)
	}
	if err := npy.Save(filepath.Join(tmp, "special.npy"), special); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		golden string
		code   int
		args   []string
	}{
		{"conv_relu.check.json", 0, []string{"check", "testdata/zoo/conv_relu/xnnpack.pte", "--json"}},
		{"conv_relu.inspect.json", 0, []string{"inspect", "testdata/zoo/conv_relu/xnnpack.pte", "--json"}},
		// The official [VulkanPartitioner(), XnnpackPartitioner()] program: two backends' rows.
		{"max_head.vulkan_xnnpack.inspect.json", 0, []string{"inspect", "testdata/mixed/max_head/vulkan_xnnpack.pte", "--json"}},
		// int_bool's four outputs are of four dtypes, computed without float reductions (no
		// summation order to differ between machines).
		{"int_bool.run.json", 0, []string{"run", "testdata/zoo/int_bool/portable.pte", "--input", "testdata/zoo/int_bool/inputs/input_0.npy",
			"--input", "testdata/zoo/int_bool/inputs/input_1.npy", "--output-dir", filepath.Join(tmp, "out"), "--etdump", filepath.Join(tmp, "run.etdp"), "--json"}},
		{"int_bool.etdump.inspect.json", 0, []string{"inspect", filepath.Join(tmp, "run.etdp"), "--json"}},
		{"conv_relu.bench.json", 0, []string{"bench", "testdata/zoo/conv_relu/xnnpack.pte", "--iterations", "2", "--warmup", "1", "--json"}},
		{"conv_relu.lower.json", 0, []string{"lower", "testdata/zoo/conv_relu/model.pt2", "-o", filepath.Join(tmp, "conv_relu.pte"), "--json"}},
		{"conv_relu.rewrite.json", 0, []string{"rewrite", "testdata/zoo/conv_relu/xnnpack.pte", filepath.Join(tmp, "rewritten.pte"), "--json"}},
		// Every kind of array, and two files that cannot be read (exit status 1, after the rest).
		{"npy.json", 1, []string{"npy", "--json", "testdata/npy/f32_2x3.npy", "testdata/npy/f16_2x2.npy", "testdata/npy/f32_scalar.npy",
			"testdata/npy/f32_empty.npy", "testdata/npy/i64_2x3.npy", "testdata/npy/bool_5.npy", filepath.Join(tmp, "special.npy"),
			"testdata/npy/complex64.npy", "testdata/npy/f32_fortran.npy"}},
		{"version.json", 0, []string{"version", "--json"}},
		// One candidate that can be measured (the portable program: the choice whatever the
		// times) and a Vulkan one etgo's preprocess refuses on every machine (dynamic shapes),
		// listed as not measurable.
		{"dynamic_batch.tune.json", 0, []string{"tune", "testdata/zoo/dynamic_batch/model.pt2", "-o", filepath.Join(tmp, "best.pte"), "--partitioner", "vulkan",
			"--threads", "1", "--rounds", "1", "--iterations", "1", "--warmup", "0", "--json"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			code, stdout, stderr := etgo(tc.args...)
			if code != tc.code {
				t.Fatalf("etgo %s: exit %d, want %d\n%s", strings.Join(tc.args, " "), code, tc.code, stderr)
			}
			if !json.Valid([]byte(stdout)) {
				t.Fatalf("etgo %s: not one JSON document:\n%s", strings.Join(tc.args, " "), stdout)
			}
			var doc struct {
				SchemaVersion *int `json:"schema_version"`
			}
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil || doc.SchemaVersion == nil || *doc.SchemaVersion < 1 {
				t.Errorf("etgo %s: no schema_version (%v)", strings.Join(tc.args, " "), err)
			}
			got := strings.ReplaceAll(stdout, tmp, "$TMP")
			got = timing.ReplaceAllString(got, "$1: 0")
			got = buildFacts.ReplaceAllString(got, `$1: "…"`)
			got = buildModified.ReplaceAllString(got, `$1: false`)
			compareGolden(t, filepath.Join(dir, tc.golden), []byte(got))
		})
	}
}

// TestJSONNames: every field of every --json document is snake_case, and says so in its tag
// (an untagged field would come out in Go's CamelCase). Map keys are data (operator names), not
// fields, and are not checked.
func TestJSONNames(t *testing.T) {
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	seen := map[reflect.Type]bool{}
	var walk func(path string, ty reflect.Type)
	walk = func(path string, ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Array || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] {
			return
		}
		seen[ty] = true
		for i := range ty.NumField() {
			f := ty.Field(i)
			if !f.IsExported() {
				continue
			}
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag == "-" {
				continue
			}
			if f.Anonymous && tag == "" {
				walk(path, f.Type) // promoted fields
				continue
			}
			if !snake.MatchString(tag) {
				t.Errorf("%s.%s: JSON name %q is not snake_case", path, f.Name, tag)
			}
			walk(path+"."+tag, f.Type)
		}
	}
	for _, v := range []any{benchResult{}, checkResult{}, runResult{}, npyResult{}, versionResult{}, rewriteResult{},
		jsonPlan{}, inspectJSON{}, inspect.Report{}, etdumpReport{}, tuneResult{}} {
		walk(reflect.TypeOf(v).Name(), reflect.TypeOf(v))
	}
}

// TestNumberJSON: JSON has no NaN or infinity; a tensor's are strings.
func TestNumberJSON(t *testing.T) {
	b, err := json.Marshal([]number{1.5, number(math.NaN()), number(math.Inf(1)), number(math.Inf(-1)), 0, 1e21, number(shortFloat32(float64(float32(0.1))))})
	if want := `[1.5,"nan","inf","-inf",0,1e+21,0.1]`; err != nil || string(b) != want {
		t.Errorf("got %s (%v), want %s", b, err, want)
	}
}

// TestGoldensCover: every command that reports facts has a --json golden (a new command, or a
// new --json, needs one).
func TestGoldensCover(t *testing.T) {
	root := (&app{}).rootCommand()
	for _, c := range root.Commands() {
		if c.Flags().Lookup("json") == nil {
			continue
		}
		matches, _ := filepath.Glob(filepath.Join("testdata", "*"+c.Name()+"*.json"))
		if len(matches) == 0 {
			t.Errorf("etgo %s --json has no golden in testdata/", c.Name())
		}
	}
	if _, err := os.Stat(filepath.Join("testdata", "split_delegation.plan.json")); err != nil {
		t.Error(err)
	}
}
