package pte

import (
	"os"
	"testing"

	"github.com/etgo/etgo/internal/fbverify"
)

// TestSchemaSpecMatchesFBS keeps the verifier's description equal to schema/program.fbs.
func TestSchemaSpecMatchesFBS(t *testing.T) {
	raw, err := os.ReadFile("schema/program.fbs")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fbverify.CompareFBS(string(raw), specProgram) {
		t.Error(d)
	}
}
