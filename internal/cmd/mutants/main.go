// Command mutants writes the mutation campaign's manifest: corrupt variants of seed files as
// byte edits against each seed (internal/mutate). -kind blob (the default) mutates the XNNPACK
// delegate blobs of .pte files, for tools/reference/mutate_blobs.py; -kind pte, pt2 and npy
// mutate whole program files, .pt2 archives and .npy files, for tools/reference/mutate_files.py.
// The scripts then judge every mutant with the official runtime and with etgo.
//
//	go run ./internal/cmd/mutants [-kind blob|pte|pt2|npy] [-n 120] [-seed 1] [-o manifest.json] SEED...
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/etgo/etgo/internal/mutate"
)

// Seed is one seed file and its mutants.
type Seed struct {
	Path    string          `json:"path"`
	Name    string          `json:"name"`
	SHA256  string          `json:"sha256"`
	Mutants []mutate.Mutant `json:"mutants"`
}

func main() {
	n := flag.Int("n", 120, "mutants per seed")
	seed := flag.Uint64("seed", 1, "campaign seed")
	out := flag.String("o", "-", "manifest file (- for stdout)")
	kind := flag.String("kind", "blob", "what to mutate: blob (XNNPACK delegate blobs), pte, pt2 or npy")
	flag.Parse()
	gen, ok := map[string]func([]byte, string, uint64, int) ([]mutate.Mutant, error){
		"blob": mutate.Generate, "pte": mutate.GenerateProgram, "pt2": mutate.GenerateArchive, "npy": mutate.GenerateNpy,
	}[*kind]
	if !ok {
		log.Fatalf("unknown -kind %q", *kind)
	}
	var seeds []Seed
	total := 0
	for _, p := range flag.Args() {
		data, err := os.ReadFile(p)
		if err != nil {
			log.Fatal(err)
		}
		name := seedName(p)
		if *kind != "blob" {
			name = fileSeedName(p)
		}
		ms, err := gen(data, name, *seed, *n)
		if err != nil {
			log.Fatal(err)
		}
		sum := sha256.Sum256(data)
		seeds = append(seeds, Seed{Path: filepath.ToSlash(p), Name: name, SHA256: hex.EncodeToString(sum[:]), Mutants: ms})
		total += len(ms)
	}
	b, err := json.MarshalIndent(map[string]any{"campaign_seed": *seed, "per_seed": *n, "seeds": seeds}, "", " ")
	if err != nil {
		log.Fatal(err)
	}
	if *out == "-" {
		os.Stdout.Write(append(b, '\n'))
	} else if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "mutants: %d seeds, %d mutants\n", len(seeds), total)
}

// seedName names a seed by its directories under testdata: testdata/zoo/add/xnnpack.pte is
// "zoo/add".
func seedName(p string) string {
	p = filepath.ToSlash(p)
	if i := strings.Index(p, "testdata/"); i >= 0 {
		p = p[i+len("testdata/"):]
	}
	return strings.TrimSuffix(strings.TrimSuffix(p, ".pte"), "/xnnpack")
}

// fileSeedName names a seed by its path under testdata without the extension:
// testdata/zoo/add/portable.pte is "zoo/add/portable", testdata/npy/f32_1d.npy "npy/f32_1d".
func fileSeedName(p string) string {
	p = filepath.ToSlash(p)
	if i := strings.Index(p, "testdata/"); i >= 0 {
		p = p[i+len("testdata/"):]
	}
	return strings.TrimSuffix(p, filepath.Ext(p))
}
