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

// TestGenerateFiles: the .pte, .pt2 and .npy generators are deterministic, every mutant
// applies to its seed and changes it, and every family produces mutants.
func TestGenerateFiles(t *testing.T) {
	for _, c := range []struct {
		path     []string
		gen      func([]byte, string, uint64, int) ([]Mutant, error)
		families []string
	}{
		{[]string{"zoo", "conv_relu", "portable.pte"}, GenerateProgram, ProgramFamilies()},
		{[]string{"zoo", "split_delegation", "xnnpack.pte"}, GenerateProgram, ProgramFamilies()},
		{[]string{"zoo", "conv_relu", "model.pt2"}, GenerateArchive, ArchiveFamilies()},
		{[]string{"corpus", "alexnet", "model.pt2"}, GenerateArchive, ArchiveFamilies()}, // deflated JSON entries
		{[]string{"zoo", "conv_relu", "inputs", "input_0.npy"}, GenerateNpy, NpyFamilies()},
	} {
		seed, err := os.ReadFile(testutil.Testdata(t, c.path...))
		if err != nil {
			t.Fatal(err)
		}
		a, err := c.gen(seed, "s", 1, 40)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := c.gen(seed, "s", 1, 40)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%v: two generations with the same seed differ", c.path)
		}
		kinds := map[string]bool{}
		for _, m := range a {
			kinds[m.Kind] = true
			out, err := m.Apply(seed)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(out, seed) {
				t.Errorf("%s (%s) changes nothing", m.ID, m.Desc)
			}
		}
		for _, f := range c.families {
			if !kinds[f] && f != "npy-fortran" {
				t.Errorf("%v: no %s mutant", c.path, f)
			}
		}
	}
}

// TestSplice: splices apply in the seed's offsets, from the last back.
func TestSplice(t *testing.T) {
	m := Mutant{ID: "x", Edits: []Edit{{Off: 1, Data: []byte("AB"), Splice: true, Cut: 1}, {Off: 4, Data: []byte("z")}, {Off: 6, Data: []byte("!"), Splice: true}}}
	out, err := m.Apply([]byte("012345"))
	if err != nil || string(out) != "0AB23z5!" {
		t.Fatalf("got %q, %v", out, err)
	}
	if _, err := (&Mutant{ID: "y", Edits: []Edit{{Off: 1, Cut: 3, Splice: true}, {Off: 2, Data: []byte("q")}}}).Apply([]byte("012345")); err == nil {
		t.Error("overlapping edits applied")
	}
}
