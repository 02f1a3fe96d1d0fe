package xnngraph

import (
	"os"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/schema"
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

// TestEveryNodeTypeRegistered: each tag of the schema's XNodeUnion has a description, and its
// table in the verifier's union.
func TestEveryNodeTypeRegistered(t *testing.T) {
	for op, name := range schema.EnumNamesXNodeUnion {
		if op == schema.XNodeUnionNONE {
			continue
		}
		if lookup(op) == nil {
			t.Errorf("%s (tag %d) is not registered", name, op)
			continue
		}
		if int(op) > len(specNodeUnion.Members) || specNodeUnion.Members[op-1] != lookup(op).table {
			t.Errorf("%s (tag %d): the verifier's union does not hold its table", name, op)
		}
	}
	if got, want := len(specNodeUnion.Members), len(schema.EnumNamesXNodeUnion)-1; got != want {
		t.Errorf("the verifier's union has %d members, the schema %d", got, want)
	}
}
