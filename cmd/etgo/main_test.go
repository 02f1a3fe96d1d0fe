package main

import (
	"bytes"
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
	fortran := testutil.Testdata(t, "npy", "f32_fortran.npy")
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		out, err string
	}{
		{"no args", nil, 2, "Commands:", ""},
		{"help", []string{"help"}, 0, "npy", ""},
		{"help npy", []string{"help", "npy"}, 0, "usage: etgo npy", ""},
		{"unknown", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{"npy", []string{"npy", input}, 0, "float32[1,3,32,32] min ", ""},
		{"npy all values", []string{"npy", "--values", "-1", testutil.Testdata(t, "npy", "i32_4.npy")}, 0, "int32[4] min -2.14748e+09 max 2.14748e+09 mean -0.5 [-2.14748e+09 -1 0 2.14748e+09]", ""},
		{"npy no files", []string{"npy"}, 2, "", "usage: etgo npy"},
		{"npy bad file", []string{"npy", input, fortran}, 1, "float32[1,3,32,32]", "fortran_order"},
		{"npy missing file", []string{"npy", "/nonexistent.npy"}, 1, "", "no such file"},
		{"npy bad flag", []string{"npy", "--nope", input}, 2, "", "flag provided but not defined"},
		{"inspect", []string{"inspect", xnn}, 0, "requires backends:  XnnpackBackend", ""},
		{"inspect json", []string{"inspect", "--json", xnn}, 0, `"backend_id": "XnnpackBackend"`, ""},
		{"inspect bundled", []string{"inspect", bundled}, 1, "", "bundled program"},
		{"inspect npy", []string{"inspect", input}, 1, "", `no "ET12" identifier`},
		{"inspect missing", []string{"inspect", "/nonexistent.pte"}, 1, "", "no such file"},
		{"inspect no file", []string{"inspect"}, 2, "", "usage: etgo inspect"},
		{"rewrite", []string{"rewrite", xnn, rewritten}, 0, "-> " + rewritten, ""},
		{"inspect rewritten", []string{"inspect", rewritten}, 0, "XnnpackBackend", ""},
		{"rewrite bad alignment", []string{"rewrite", "--segment-alignment", "100", xnn, rewritten}, 1, "", "not a power of two"},
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
}
