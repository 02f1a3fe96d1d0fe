package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

func TestCLI(t *testing.T) {
	input := testutil.Testdata(t, "zoo", "conv_relu", "inputs", "input_0.npy")
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
