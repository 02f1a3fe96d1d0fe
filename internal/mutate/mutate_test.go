package mutate

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// TestGenerate: generation is deterministic, every mutant applies to its seed and changes it,
// ids are unique, and a seed with constants, several nodes and named data gets most families.
func TestGenerate(t *testing.T) {
	seed, err := os.ReadFile(testutil.Testdata(t, "zoo", "residual_cnn", "xnnpack.pte"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := Generate(seed, "zoo/residual_cnn", 1, 120)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(seed, "zoo/residual_cnn", 1, 120)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two generations with the same seed differ")
	}
	if len(a) < 80 {
		t.Fatalf("%d mutants, want most of 120", len(a))
	}
	ids := map[string]bool{}
	kinds := map[string]bool{}
	for _, m := range a {
		if ids[m.ID] {
			t.Errorf("id %s twice", m.ID)
		}
		ids[m.ID], kinds[m.Kind] = true, true
		out, err := m.Apply(seed)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(out, seed) {
			t.Errorf("%s (%s) changes nothing", m.ID, m.Desc)
		}
	}
	if len(kinds) < len(Families())-2 {
		t.Errorf("families %v, want nearly all of %v", kinds, Families())
	}
	if _, err := (&Mutant{ID: "x", Edits: []Edit{{Off: len(seed), Data: []byte{1}}}}).Apply(seed); err == nil {
		t.Error("an edit past the end applied")
	}
}
