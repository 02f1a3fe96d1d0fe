package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// TestCLIRefusesNonRegularFiles: every command that opens a file once read devices whole and
// waited on FIFOs (etgo inspect /dev/zero grew to gigabytes until killed). A .pte or .pt2 must
// be a regular file; a .npy may be a stream, read within the header's bounds, so /dev/zero fails
// at its magic. (A FIFO given as a .npy is waited on, as cat would: the npy tests feed one.)
func TestCLIRefusesNonRegularFiles(t *testing.T) {
	pte := testutil.Testdata(t, "zoo", "add", "portable.pte")
	for _, bp := range testutil.BadPaths(t) {
		npyWords := map[string]string{"directory": "a directory", "zero": "magic", "null": "truncated preamble"}[bp.Name]
		for _, tc := range []struct {
			name  string
			args  []string
			words string
		}{
			{"inspect", []string{"inspect", bp.Path}, bp.Kind},
			{"check", []string{"check", bp.Path}, bp.Kind},
			{"rewrite", []string{"rewrite", bp.Path, t.TempDir() + "/out.pte"}, bp.Kind},
			{"run", []string{"run", bp.Path}, bp.Kind},
			{"bench", []string{"bench", bp.Path, "--iterations", "1"}, bp.Kind},
			{"lower", []string{"lower", bp.Path, "--plan"}, bp.Kind},
			{"npy", []string{"npy", bp.Path}, npyWords},
			{"run input", []string{"run", pte, "--input", bp.Path, "--input", bp.Path}, npyWords},
		} {
			if tc.words == "" {
				continue // a FIFO as a .npy: a stream with no writer yet
			}
			t.Run(bp.Name+"/"+tc.name, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				if code := run(tc.args, &stdout, &stderr); code != 1 {
					t.Errorf("exit %d, want 1; stderr: %s", code, &stderr)
				}
				if !strings.Contains(stderr.String(), tc.words) || !strings.Contains(stderr.String(), bp.Path) {
					t.Errorf("stderr %q lacks %q or the path", &stderr, tc.words)
				}
			})
		}
	}
}
