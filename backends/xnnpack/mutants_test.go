package xnnpack_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/mutate"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/kernels/prim"
	"github.com/etgo/etgo/npy"
)

// corpusEntry is one mutant of testdata/mutants/corpus.json (tools/reference/mutate_blobs.py):
// the mutants whose official and etgo verdicts once disagreed.
type corpusEntry struct {
	mutate.Mutant
	Seed           string `json:"seed"`
	Official       string `json:"official"`
	OfficialDetail string `json:"official_detail"`
	Etgo           string `json:"etgo"`
}

// TestMutantCorpus runs etgo over the committed corpus of corrupt delegate blobs: every mutant
// the official runtime refuses (at load or at execute) etgo refuses too, none makes etgo panic,
// and every mutant the official runtime runs to the seed's own outputs that etgo ran when the
// corpus was made still runs, to those outputs.
func TestMutantCorpus(t *testing.T) {
	raw, err := os.ReadFile(testutil.Testdata(t, "mutants", "corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var corpus struct {
		Mutants []corpusEntry `json:"mutants"`
	}
	if err := json.Unmarshal(raw, &corpus); err != nil {
		t.Fatal(err)
	}
	if len(corpus.Mutants) == 0 {
		t.Fatal("the corpus is empty")
	}
	reg := executor.NewRegistry()
	for _, err := range []error{portable.Register(reg), prim.Register(reg), xnnpack.Register(reg)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	root := testutil.RepoRoot(t)
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
		inputs, expected := seedIO(t, filepath.Join(root, filepath.Dir(m.Seed)))
		v := mutate.Judge(data, reg, inputs)
		counts[m.Official+" / "+v.Kind]++
		refused := v.Kind == mutate.LoadRefused || v.Kind == mutate.ExecRefused
		switch {
		case v.Kind == mutate.Panicked || v.Kind == mutate.Crashed:
			t.Errorf("%s (%s): etgo %s: %s", m.ID, m.Desc, v.Kind, v.Detail)
		case (m.Official == mutate.LoadRefused || m.Official == mutate.ExecRefused) && !refused:
			t.Errorf("%s (%s): the official runtime refuses it (%s), etgo ran it", m.ID, m.Desc, m.OfficialDetail)
		case m.Official == "ran-same" && strings.HasPrefix(m.Etgo, "ran") && !strings.HasPrefix(v.Kind, "ran"):
			t.Errorf("%s (%s): the official runtime runs it to the seed's outputs, etgo now refuses it: %s", m.ID, m.Desc, v.Detail)
		case m.Official == "ran-same" && v.Kind == mutate.Ran:
			if err := sameOutputs(v.Outputs, expected); err != nil {
				t.Errorf("%s (%s): the official runtime gives the seed's outputs, etgo: %v", m.ID, m.Desc, err)
			}
		}
	}
	var lines []string
	for k, n := range counts {
		lines = append(lines, fmt.Sprintf("%5d  %s", n, k))
	}
	sort.Strings(lines)
	t.Logf("%d mutants (official / etgo):\n%s", len(corpus.Mutants), strings.Join(lines, "\n"))
}

var numbered = regexp.MustCompile(`_(\d+)\.npy$`)

// seedIO loads a seed's committed inputs (inputs/input_<i>.npy) and the official runtime's
// outputs for it (expected/xnnpack/ for the zoo, expected/ for the quantized models).
func seedIO(t *testing.T, dir string) (inputs []*executor.EValue, expected []*npy.Array) {
	t.Helper()
	load := func(pattern string) []*npy.Array {
		paths, _ := filepath.Glob(pattern)
		sort.Slice(paths, func(i, j int) bool { return index(paths[i]) < index(paths[j]) })
		var out []*npy.Array
		for _, p := range paths {
			a, err := npy.Load(p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, a)
		}
		return out
	}
	for _, a := range load(filepath.Join(dir, "inputs", "input_*.npy")) {
		tn, err := npyconv.Tensor(a)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, &executor.EValue{Tag: executor.TagTensor, Tensor: tn})
	}
	expected = load(filepath.Join(dir, "expected", "xnnpack", "output_*.npy"))
	if len(expected) == 0 {
		expected = load(filepath.Join(dir, "expected", "output_*.npy"))
	}
	return inputs, expected
}

func index(p string) int {
	m := numbered.FindStringSubmatch(p)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// sameOutputs compares as the campaign does: within 1e-6 + 1e-4 times the output's largest
// magnitude (integer and boolean outputs exactly).
func sameOutputs(got []*executor.EValue, want []*npy.Array) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d outputs, %d expected", len(got), len(want))
	}
	for i, g := range got {
		if g.Tag != executor.TagTensor {
			return fmt.Errorf("output %d is %s", i, g.Tag)
		}
		scale := 0.0
		if v, err := want[i].Float64s(); err == nil {
			for _, x := range v {
				if a := math.Abs(x); !math.IsInf(a, 0) && !math.IsNaN(a) {
					scale = max(scale, a)
				}
			}
		}
		tol := 1e-6 + 1e-4*scale
		if want[i].DType == npy.Float16 {
			tol = 1e-2 * scale // (fp16 graphs: node_fp16.go's bound against the official runtime)
		}
		if err := npyconv.Compare(g.Tensor, want[i], tol); err != nil {
			return fmt.Errorf("output %d: %v", i, err)
		}
	}
	return nil
}
