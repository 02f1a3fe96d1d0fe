package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

func TestCLI(t *testing.T) {
	input := testutil.Testdata(t, "zoo", "conv_relu", "inputs", "input_0.npy")
	xnn := testutil.Testdata(t, "zoo", "conv_relu", "xnnpack.pte")
	bundled := filepath.Join(testutil.WildDir(t), "extension__module__test__resources__bundled_program.bpte")
	rewritten := filepath.Join(t.TempDir(), "rewritten.pte")
	outDir := t.TempDir()
	lowered := filepath.Join(t.TempDir(), "lowered.pte")
	report := filepath.Join(t.TempDir(), "report.json")
	fortran := testutil.Testdata(t, "npy", "f32_fortran.npy")
	demoOut := filepath.Join(t.TempDir(), "demo.pte")
	dotOut := filepath.Join(t.TempDir(), "plan.dot")
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		out, err string
	}{
		{"no args", nil, 2, "", "Available Commands:"},
		{"help", []string{"help"}, 0, "npy", ""},
		{"help npy", []string{"help", "npy"}, 0, "Usage:\n  etgo npy FILE.npy... [flags]", ""},
		{"unknown", []string{"frobnicate"}, 2, "", `etgo: unknown command "frobnicate" for "etgo"`},
		{"npy", []string{"npy", input}, 0, "float32[1,3,32,32] min ", ""},
		{"npy all values", []string{"npy", "--values", "-1", testutil.Testdata(t, "npy", "i32_4.npy")}, 0, "int32[4] min -2.14748e+09 max 2.14748e+09 mean -0.5 [-2.14748e+09 -1 0 2.14748e+09]", ""},
		{"npy no files", []string{"npy"}, 2, "", "etgo npy: missing FILE.npy (one or more)\nRun 'etgo npy --help' for usage."},
		{"npy bad file", []string{"npy", input, fortran}, 1, "float32[1,3,32,32]", "fortran_order"},
		{"npy missing file", []string{"npy", "/nonexistent.npy"}, 1, "", "no such file"},
		{"npy bad flag", []string{"npy", "--nope", input}, 2, "", "etgo npy: unknown flag: --nope"},
		{"inspect", []string{"inspect", xnn}, 0, "requires backends:  XnnpackBackend", ""},
		{"inspect json", []string{"inspect", "--json", xnn}, 0, `"backend_id": "XnnpackBackend"`, ""},
		{"inspect bundled", []string{"inspect", bundled}, 1, "", "bundled program"},
		{"inspect npy", []string{"inspect", input}, 1, "", `no "ET12" identifier`},
		{"inspect pt2", []string{"inspect", testutil.Testdata(t, "zoo", "mlp", "model.pt2")}, 1, "", "as torch.export.save writes a .pt2, not an ExecuTorch program: lower it with `etgo lower"},
		{"inspect missing", []string{"inspect", "/nonexistent.pte"}, 1, "", "no such file"},
		{"inspect no file", []string{"inspect"}, 2, "", "etgo inspect: missing FILE.pte"},
		{"rewrite", []string{"rewrite", xnn, rewritten}, 0, "-> " + rewritten, ""},
		{"inspect rewritten", []string{"inspect", rewritten}, 0, "XnnpackBackend", ""},
		{"run portable", []string{"run", testutil.Testdata(t, "zoo", "conv_relu", "portable.pte"), "--input", input, "--output-dir", outDir}, 0, "output 0: float32[1,8,32,32]", ""},
		{"run xnnpack", []string{"run", xnn, "--input", input}, 0, "output 0: float32[1,8,32,32]", ""},
		{"run wrong input count", []string{"run", xnn}, 1, "", "takes 1 inputs, got 0"},
		{"run unknown method", []string{"run", xnn, "--method", "backward", "--input", input}, 1, "", "method not found"},
		{"run etdump", []string{"run", xnn, "--input", input, "--etdump", filepath.Join(outDir, "run.etdp")}, 0, "output 0: float32[1,8,32,32]", ""},
		{"inspect etdump", []string{"inspect", filepath.Join(outDir, "run.etdp")}, 0, "Execute    DELEGATE_CALL", ""},
		{"bench etdump", []string{"bench", testutil.Testdata(t, "zoo", "split_delegation", "xnnpack.pte"), "--iterations", "3", "--warmup", "0", "--etdump", filepath.Join(outDir, "bench.etdp")}, 0, "3 runs", ""},
		{"inspect etdump json", []string{"inspect", "--json", filepath.Join(outDir, "bench.etdp")}, 0, `"name": "native_call_cumsum.out",
      "count": 3,`, ""},
		{"lower html", []string{"lower", testutil.Testdata(t, "zoo", "split_delegation", "model.pt2"), "--plan", "--html", filepath.Join(outDir, "plan.html")}, 0, "8 of 10 operators delegated", ""},
		{"inspect html", []string{"inspect", testutil.Testdata(t, "zoo", "split_delegation", "xnnpack.pte"), "--html", filepath.Join(outDir, "program.html"),
			"--etdump", filepath.Join(outDir, "bench.etdp")}, 0, "requires backends:  XnnpackBackend", ""},
		{"inspect etdump without html", []string{"inspect", xnn, "--etdump", filepath.Join(outDir, "bench.etdp")}, 2, "", "--etdump goes with --html"},
		{"check xnnpack", []string{"check", xnn}, 0, "ok      backend  XnnpackBackend", ""},
		{"check cortex_m", []string{"check", filepath.Join(testutil.WildDir(t), "examples__arduino__examples__KeywordSpotting__model.pte")}, 1, "MISSING kernel   cortex_m::quantized_linear.out", "7 of its needs are missing"},
		{"check qnn", []string{"check", filepath.Join(testutil.WildDir(t), "examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_llama_qnn.pte")}, 1, "MISSING backend  QnnBackend", "missing"},
		{"bench", []string{"bench", xnn, "--iterations", "3", "--warmup", "1", "--json"}, 0, `"median_ms"`, ""},
		{"bench profile", []string{"bench", testutil.Testdata(t, "zoo", "split_delegation", "xnnpack.pte"), "--iterations", "2", "--warmup", "0", "--profile", "--top", "2"},
			0, "… 3 more\n  instructions: ", ""},
		{"bench profile json", []string{"bench", xnn, "--iterations", "2", "--profile", "--json"}, 0, `"name": "XnnpackBackend (delegate 0)"`, ""},
		{"lower plan", []string{"lower", testutil.Testdata(t, "zoo", "split_delegation", "model.pt2"), "--plan"}, 0, "8 of 10 operators delegated to XnnpackBackend in 3 regions", ""},
		{"lower plan reasons", []string{"lower", "--plan", testutil.Testdata(t, "zoo", "split_delegation", "model.pt2")}, 0, "XnnpackBackend: unsupported-operator: XNNPACK has no partitioner config for aten.cumsum.default", ""},
		{"lower plan kernels", []string{"lower", testutil.Testdata(t, "zoo", "split_delegation", "model.pt2"), "--plan"}, 0, "ok      aten::cumsum.out", ""},
		{"lower plan coverage by work", []string{"lower", testutil.Testdata(t, "zoo", "split_delegation", "model.pt2"), "--plan"}, 0, "XnnpackBackend: 98.7% of the work (19.1k of 19.3k FLOPs), 80% of operators, 3 regions; per run 7 tensors in (2.0 KiB), 4 out (1.6 KiB)", ""},
		{"lower plan json coverage", []string{"lower", testutil.Testdata(t, "zoo", "split_delegation", "model.pt2"), "--plan", "--json"}, 0, `"delegated_flops": 19072`, ""},
		{"lower dot", []string{"lower", testutil.Testdata(t, "zoo", "split_delegation", "model.pt2"), "--plan", "--dot", dotOut}, 0, "8 of 10 operators", ""},
		{"lower plan json", []string{"lower", testutil.Testdata(t, "zoo", "split_delegation", "model.pt2"), "--plan", "--json"}, 0, `"reason": "unsupported-operator"`, ""},
		{"lower per-op", []string{"lower", testutil.Testdata(t, "zoo", "mlp", "model.pt2"), "--plan", "--per-op"}, 0, "3 of 3 operators delegated to XnnpackBackend in 2 regions", ""},
		{"lower without recommended passes", []string{"lower", testutil.Testdata(t, "zoo", "noop_expand", "model.pt2"), "--plan", "--transform-passes", "none"}, 0, "in 2 regions", ""},
		{"lower with recommended passes", []string{"lower", testutil.Testdata(t, "zoo", "noop_expand", "model.pt2"), "--plan"}, 0, "in 1 region\n", ""},
		{"lower decomposes", []string{"lower", testutil.Testdata(t, "zoo", "resnet18_small", "model.pt2"), "--plan"}, 0, "69 of 69 operators delegated to XnnpackBackend in 1 region", ""},
		{"lower transformer", []string{"lower", testutil.Testdata(t, "zoo", "transformer_encoder", "model.pt2"), "--plan"}, 0, "29 of 40 operators delegated to XnnpackBackend in 5 regions", ""},
		{"lower unknown partitioner", []string{"lower", testutil.Testdata(t, "zoo", "mlp", "model.pt2"), "--plan", "--partitioner", "coreml"}, 2, "", `unknown partitioner "coreml" (known: vulkan, xnnpack; none alone for no delegate)`},
		{"lower unknown pass", []string{"lower", testutil.Testdata(t, "zoo", "mlp", "model.pt2"), "--plan", "--transform-passes", "Nope"}, 2, "", `unknown pass "Nope"`},
		{"lower without output", []string{"lower", testutil.Testdata(t, "zoo", "mlp", "model.pt2")}, 2, "", "give -o OUT.pte"},
		{"lower -o", []string{"lower", testutil.Testdata(t, "zoo", "conv_relu", "model.pt2"), "-o", lowered, "--report", report}, 0, "wrote " + lowered, "emit"},
		{"run lowered", []string{"run", lowered, "--input", input}, 0, "output 0: float32[1,8,32,32]", ""},
		{"check lowered", []string{"check", lowered}, 0, "ok      backend  XnnpackBackend", ""},
		{"lower -o and --plan", []string{"lower", testutil.Testdata(t, "zoo", "mlp", "model.pt2"), "--plan", "-o", lowered}, 2, "", "--plan prints the plan only"},
		{"lower not a pt2", []string{"lower", xnn, "--plan"}, 1, "", "not a zip archive"},
		{"demo lowers", []string{"demo"}, 0, "8 of 10 operators delegated to XnnpackBackend in 3 regions", ""},
		{"demo declines", []string{"demo"}, 0, "left to the portable kernels: cumsum (aten.cumsum.default)\n  XnnpackBackend declined it: unsupported-operator:", ""},
		{"demo boundary", []string{"demo"}, 0, "delegate 1 (XnnpackBackend): in cumsum float32[4,32]", ""},
		{"demo times", []string{"demo"}, 0, "portable kernels", ""},
		{"demo graph", []string{"demo"}, 0, "  get_attr       lowered_module_0", ""},
		{"demo runs", []string{"demo", "--threads", "2"}, 0, "matches eager PyTorch: max abs difference", ""},
		{"demo refuses", []string{"demo"}, 0, "needs backend XnnpackBackend (delegate 0, instruction 0), but this runtime has no backends registered", ""},
		{"demo -o", []string{"demo", "-o", demoOut}, 0, "wrote " + demoOut, ""},
		{"check demo", []string{"check", demoOut}, 0, "ok      backend  XnnpackBackend", ""},
		{"demo arguments", []string{"demo", "model.pt2"}, 2, "", `etgo demo: unexpected argument "model.pt2" (etgo demo takes no arguments)`},
		{"rewrite bad alignment", []string{"rewrite", "--segment-alignment", "100", xnn, rewritten}, 2, "", "--segment-alignment must be a power of two, got 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, &stdout, &stderr)
			}
			if !strings.Contains(stdout.String(), tc.out) {
				t.Errorf("stdout %q lacks %q", &stdout, tc.out)
			}
			if !strings.Contains(stderr.String(), tc.err) {
				t.Errorf("stderr %q lacks %q", &stderr, tc.err)
			}
		})
	}
	// etgo run wrote the output numpy would: byte-identical to the official runtime's .npy.
	got, err := os.ReadFile(filepath.Join(outDir, "output_0.npy"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(testutil.Testdata(t, "zoo", "conv_relu", "expected", "portable", "output_0.npy"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || string(got[:128]) != string(want[:128]) {
		t.Errorf("output_0.npy header differs from the official one")
	}
	// lower --dot drew the plan.
	if b, err := os.ReadFile(dotOut); err != nil || !strings.Contains(string(b), "subgraph cluster_2") {
		t.Errorf("lower --dot: %v, %.80q", err, b)
	}
	// lower --report wrote the decision report.
	var r struct {
		Delegates []any `json:"delegates"`
	}
	if b, err := os.ReadFile(report); err != nil || json.Unmarshal(b, &r) != nil || len(r.Delegates) != 1 {
		t.Errorf("report %s: %v, %d delegates", report, err, len(r.Delegates))
	}
}

// TestDemoAssets: the model etgo demo embeds is the zoo's split_delegation, with its input and eager
// PyTorch's output for it; the copies must not drift from the fixtures the oracle produced.
func TestDemoAssets(t *testing.T) {
	for _, tc := range []struct {
		embedded []byte
		fixture  []string
	}{
		{demoModel, []string{"zoo", "split_delegation", "model.pt2"}},
		{demoInput, []string{"zoo", "split_delegation", "inputs", "input_0.npy"}},
		{demoExpected, []string{"zoo", "split_delegation", "expected", "eager", "output_0.npy"}},
	} {
		want, err := os.ReadFile(testutil.Testdata(t, tc.fixture...))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(tc.embedded, want) {
			t.Errorf("cmd/etgo/demo differs from testdata/%s: copy it again", filepath.Join(tc.fixture...))
		}
	}
}
