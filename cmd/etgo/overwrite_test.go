package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// copyFixture copies a testdata file into dir, so a command that wrongly overwrote it would
// not damage the fixture.
func copyFixture(t *testing.T, dir, name string, elem ...string) string {
	t.Helper()
	b, err := os.ReadFile(testutil.Testdata(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRefuseOverwrite: an output that names an input (by the same path, another spelling, a
// symlink or a hard link), or two outputs that name one file, are refused as usage errors
// before anything is read or written; the input is left as it was.
func TestRefuseOverwrite(t *testing.T) {
	dir := t.TempDir()
	model := copyFixture(t, dir, "model.pt2", "zoo", "conv_relu", "model.pt2")
	pte := copyFixture(t, dir, "xnnpack.pte", "zoo", "conv_relu", "xnnpack.pte")
	outDir := filepath.Join(dir, "out")
	if err := os.Mkdir(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The input .npy sits where run --output-dir out would write output 0.
	input := copyFixture(t, outDir, "output_0.npy", "zoo", "conv_relu", "inputs", "input_0.npy")
	link := filepath.Join(dir, "link.pt2")
	if err := os.Symlink(model, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.pte")
	if err := os.Link(pte, hard); err != nil {
		t.Fatal(err)
	}
	originals := map[string][]byte{}
	for _, p := range []string{model, pte, input} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		originals[p] = b
	}
	for _, tc := range []struct {
		name string
		args []string
		err  string
	}{
		{"lower -o the model", []string{"lower", model, "-o", model}, "refusing to overwrite the input " + model + ": -o " + model + " names the same file"},
		{"lower -o another spelling", []string{"lower", model, "-o", dir + "/./model.pt2"}, "refusing to overwrite the input " + model},
		{"lower -o a symlink", []string{"lower", model, "-o", link}, "refusing to overwrite the input " + model},
		{"lower --report the model", []string{"lower", model, "--plan", "--report", model}, "--report " + model + " names the same file"},
		{"lower --dot the model", []string{"lower", link, "--plan", "--dot", model}, "--dot " + model + " names the same file"},
		{"lower two outputs", []string{"lower", model, "-o", filepath.Join(dir, "new.pte"), "--report", filepath.Join(dir, "new.pte")}, "-o " + filepath.Join(dir, "new.pte") + " and --report " + filepath.Join(dir, "new.pte") + " name the same file"},
		{"rewrite in place", []string{"rewrite", pte, pte}, "refusing to overwrite the input " + pte + ": OUT.pte " + pte + " names the same file"},
		{"rewrite a hard link", []string{"rewrite", pte, hard}, "refusing to overwrite the input " + pte},
		{"run --output-dir over an input", []string{"run", pte, "--input", input, "--output-dir", outDir}, "refusing to overwrite the input " + input + ": --output-dir " + outDir + " (output 0) names the same file"},
		{"run --etdump the program", []string{"run", pte, "--input", input, "--etdump", pte}, "--etdump " + pte + " names the same file"},
		{"bench --cpuprofile the program", []string{"bench", pte, "--cpuprofile", hard}, "--cpuprofile " + hard + " names the same file"},
		{"bench --etdump an input", []string{"bench", pte, "--input", input, "--etdump", input}, "--etdump " + input + " names the same file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := etgo(tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.err) {
				t.Errorf("exit %d, want 2; stderr %q lacks %q", code, stderr, tc.err)
			}
			if stdout != "" {
				t.Errorf("stdout %q: the command went ahead", stdout)
			}
			for p, want := range originals {
				if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s changed (%v)", p, err)
				}
			}
		})
	}
	// An output that exists and is not an input is overwritten as before.
	stale := filepath.Join(dir, "stale", "output_0.npy")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := etgo("run", pte, "--input", input, "--output-dir", filepath.Dir(stale)); code != 0 {
		t.Fatalf("run over a stale output: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(stale); string(b) == "stale" {
		t.Errorf("run --output-dir did not replace %s", stale)
	}
}
