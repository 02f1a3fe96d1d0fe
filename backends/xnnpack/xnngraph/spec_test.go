package xnngraph

import (
	"os"
	"testing"

	"github.com/etgo/etgo/internal/fbverify"
)

// TestSpecMatchesFBS keeps the verifier's description equal to schema/xnnpack.fbs.
func TestSpecMatchesFBS(t *testing.T) {
	raw, err := os.ReadFile("../schema/xnnpack.fbs")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fbverify.CompareFBS(string(raw), specGraph) {
		t.Error(d)
	}
}
