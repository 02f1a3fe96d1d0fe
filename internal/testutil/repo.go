// Package testutil holds helpers shared by etgo's tests.
package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// RepoRoot returns the module root (the folder holding go.mod), found by walking up from the
// test's working directory, which go test sets to the package folder.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("testutil: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Testdata returns a path under the repository's testdata folder.
func Testdata(tb testing.TB, elem ...string) string {
	tb.Helper()
	return filepath.Join(append([]string{RepoRoot(tb), "testdata"}, elem...)...)
}

// WildDir returns ../shared/fixtures/wild beside the repository: real .pte files from the
// ExecuTorch repository, which are not ours to commit. Outside CI a clone without shared/
// beside it skips the test that asked; under CI (CI=true) their absence fails it.
func WildDir(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join(filepath.Dir(RepoRoot(tb)), "shared", "fixtures", "wild")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("wild fixtures missing under CI: %v", err)
		}
		tb.Skipf("wild fixtures not found beside the repository (%s)", dir)
	}
	return dir
}
