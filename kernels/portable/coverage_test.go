package portable

import (
	"os"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// TestCoverageDocIsCurrent keeps docs/kernels.md equal to what the registry says.
func TestCoverageDocIsCurrent(t *testing.T) {
	got, err := os.ReadFile(testutil.RepoRoot(t) + "/docs/kernels.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != CoverageMarkdown() {
		t.Error("docs/kernels.md is stale: run go generate ./kernels/portable")
	}
}
