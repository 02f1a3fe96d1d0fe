package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/mutate"
	"github.com/etgo/etgo/internal/testutil"
)

// fileMutant is one entry of testdata/mutants/files_corpus.json (tools/reference/mutate_files.py):
// a .pte, .pt2 or .npy mutant that failed in the campaign or disagreed with its judge.
type fileMutant struct {
	mutate.Mutant
	Seed     string `json:"seed"`
	Official string `json:"official"` // the official runtime's verdict for a .pte, numpy's for a .npy
	Why      string `json:"why"`
}

// TestFileMutantCorpus replays the file campaign's corpus through the same commands the
// campaign ran, in process: none panics or exits other than 0 or 1, every .pte the official
// runtime refuses `etgo run` refuses, and every .npy numpy refuses `etgo npy` refuses. (Peak
// RSS and hangs are the campaign's to measure, a process at a time.)
func TestFileMutantCorpus(t *testing.T) {
	raw, err := os.ReadFile(testutil.Testdata(t, "mutants", "files_corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var corpus struct {
		Mutants []fileMutant `json:"mutants"`
	}
	if err := json.Unmarshal(raw, &corpus); err != nil {
		t.Fatal(err)
	}
	root := testutil.RepoRoot(t)
	dir := t.TempDir()
	seeds := map[string][]byte{}
	counts := map[string]int{}
	for _, m := range corpus.Mutants {
		seed, ok := seeds[m.Seed]
		if !ok {
			if seed, err = os.ReadFile(filepath.Join(root, m.Seed)); err != nil {
				t.Fatal(err)
			}
			seeds[m.Seed] = seed
		}
		data, err := m.Apply(seed)
		if err != nil {
			t.Fatal(err)
		}
		ext := filepath.Ext(m.Seed)
		path := filepath.Join(dir, "mutant"+ext)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		codes := map[string]int{}
		for _, c := range mutantCommands(t, root, m.Seed, path, dir) {
			code, stderr, panicked := runCaught(c.args)
			codes[c.name] = code
			switch {
			case panicked != "":
				t.Errorf("%s (%s): etgo %s panicked: %s", m.ID, m.Desc, c.name, panicked)
			case code != 0 && code != 1:
				t.Errorf("%s (%s): etgo %s exited %d: %s", m.ID, m.Desc, c.name, code, stderr)
			}
		}
		refused := m.Official == mutate.LoadRefused || m.Official == mutate.ExecRefused || m.Official == "refused"
		switch ext {
		case ".pte":
			if refused && codes["run"] == 0 {
				t.Errorf("%s (%s): the official runtime refuses it (%s), etgo run ran it", m.ID, m.Desc, m.Official)
			}
		case ".npy":
			if refused && codes["npy"] == 0 {
				t.Errorf("%s (%s): numpy refuses it, etgo npy read it", m.ID, m.Desc)
			}
		}
		counts[fmt.Sprintf("%s %s / %v", ext, m.Official, codes)]++
	}
	var lines []string
	for k, n := range counts {
		lines = append(lines, fmt.Sprintf("%5d  %s", n, k))
	}
	sort.Strings(lines)
	t.Logf("%d mutants (judge / etgo exit codes):\n%s", len(corpus.Mutants), strings.Join(lines, "\n"))
}

type mutantCommand struct {
	name string
	args []string
}

// mutantCommands are the commands mutate_files.py runs on a mutant of seed at path.
func mutantCommands(t *testing.T, root, seed, path, dir string) []mutantCommand {
	out := filepath.Join(dir, "out")
	switch filepath.Ext(seed) {
	case ".pte":
		run := []string{"run", path, "--output-dir", out}
		for _, in := range numberedInputs(t, filepath.Join(root, filepath.Dir(seed), "inputs")) {
			run = append(run, "--input", in)
		}
		return []mutantCommand{{"run", run}, {"check", []string{"check", path}}, {"inspect", []string{"inspect", path}},
			{"inspect --json", []string{"inspect", "--json", path}}, {"bench", []string{"bench", "--iterations", "1", path}}}
	case ".pt2":
		return []mutantCommand{{"lower --plan", []string{"lower", path, "--plan"}}, {"lower -o", []string{"lower", path, "-o", filepath.Join(dir, "x.pte")}},
			{"inspect", []string{"inspect", path}}}
	}
	// A model's input runs in its model (in its slot); testdata/npy's vectors in zoo/add's first.
	inputsDir, slot := filepath.Join(root, filepath.Dir(seed)), filepath.Base(seed)
	if filepath.Base(inputsDir) != "inputs" {
		inputsDir, slot = filepath.Join(root, "testdata", "zoo", "add", "inputs"), "input_0.npy"
	}
	run := []string{"run", filepath.Join(filepath.Dir(inputsDir), "xnnpack.pte"), "--output-dir", out}
	for _, in := range numberedInputs(t, inputsDir) {
		if filepath.Base(in) == slot {
			in = path
		}
		run = append(run, "--input", in)
	}
	return []mutantCommand{{"npy", []string{"npy", path}}, {"run", run}}
}

var inputNumber = regexp.MustCompile(`input_(\d+)\.npy$`)

func numberedInputs(t *testing.T, dir string) []string {
	paths, _ := filepath.Glob(filepath.Join(dir, "input_*.npy"))
	n := func(p string) int {
		m := inputNumber.FindStringSubmatch(p)
		if m == nil {
			return -1
		}
		k, _ := strconv.Atoi(m[1])
		return k
	}
	sort.Slice(paths, func(i, j int) bool { return n(paths[i]) < n(paths[j]) })
	return paths
}

// runCaught runs an etgo command in process, reporting a panic instead of dying of it.
func runCaught(args []string) (code int, stderr string, panicked string) {
	var so, se bytes.Buffer
	defer func() {
		if r := recover(); r != nil {
			panicked = fmt.Sprint(r)
		}
	}()
	code = run(args, &so, &se)
	return code, se.String(), ""
}
