// Package zoo finds the fixture models that tools/reference/generate_zoo.py writes with the
// official ExecuTorch toolchain, and hands each model's files to tests and benchmarks.
//
// A model folder holds model.pt2, portable.pte, xnnpack.pte, inputs/input_<i>.npy,
// expected/{eager,portable,xnnpack}/output_<i>.npy and delegation.json. Load refuses a folder
// that lacks any of them, so a test over the zoo never silently covers less than it claims.
package zoo

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/etgo/etgo/npy"
)

// Variant names a set of expected outputs.
type Variant string

const (
	Eager    Variant = "eager"    // eager PyTorch
	Portable Variant = "portable" // the official runtime running portable.pte
	Xnnpack  Variant = "xnnpack"  // the official runtime running xnnpack.pte
)

// Variants lists every variant a model folder holds outputs for.
var Variants = []Variant{Eager, Portable, Xnnpack}

// Model is one zoo entry: absolute paths to its files and its official delegation record.
type Model struct {
	Name       string
	Dir        string
	PT2        string
	Portable   string // portable.pte
	Xnnpack    string // xnnpack.pte
	Inputs     []string
	Expected   map[Variant][]string
	Delegation Delegation
}

// PTE returns the .pte path of a variant (Portable or Xnnpack).
func (m Model) PTE(v Variant) string {
	switch v {
	case Portable:
		return m.Portable
	case Xnnpack:
		return m.Xnnpack
	}
	return ""
}

// Delegation is delegation.json: the official lowering's result for xnnpack.pte.
type Delegation struct {
	// From get_delegation_info, which keys operators by FX node name with the numeric suffix
	// removed (e.g. "aten_linear_default") and counts delegate getitems as non-delegated.
	NumDelegatedSubgraphs int                          `json:"num_delegated_subgraphs"`
	NumDelegatedNodes     int                          `json:"num_delegated_nodes"`
	NumNonDelegatedNodes  int                          `json:"num_non_delegated_nodes"`
	ByOperator            map[string]OperatorBreakdown `json:"delegation_by_operator"`
	// Keyed by target ("aten.linear.default"), from the same graph.
	Regions             []Region       `json:"regions"`
	NonDelegatedTargets map[string]int `json:"non_delegated_targets"`
	DelegateGetitems    int            `json:"delegate_getitems"`
	// The operator tables (ns::op.overload) and delegate backend ids of each .pte.
	Operators map[Variant][]string `json:"operators"`
	Delegates map[Variant][]string `json:"delegates"`
	// Max abs difference of each official runtime output to eager, as the generator measured.
	MaxAbsDiffToEager map[Variant]float64 `json:"max_abs_diff_to_eager"`
	Model             struct {
		Description string `json:"description"`
		Seed        uint32 `json:"seed"`
		Dynamic     bool   `json:"dynamic"`
	} `json:"model"`
}

// OperatorBreakdown is one row of get_delegation_info's per-operator table.
type OperatorBreakdown struct {
	Delegated    int `json:"delegated"`
	NonDelegated int `json:"non_delegated"`
}

// Region is one delegated subgraph: its backend and the targets it holds, in graph order.
type Region struct {
	Name      string   `json:"name"`
	BackendID string   `json:"backend_id"`
	Targets   []string `json:"targets"`
}

// Load reads every model folder under dir, sorted by name.
func Load(dir string) ([]Model, error) { return load(dir, true) }

// LoadXnnpackOnly reads model folders that have no portable.pte (nor its outputs): programs the
// official to_edge refuses without a partitioner, such as torchao's affine ones.
func LoadXnnpackOnly(dir string) ([]Model, error) { return load(dir, false) }

func load(dir string, portable bool) ([]Model, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("zoo: %w", err)
	}
	var models []Model
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		m, err := loadModel(filepath.Join(dir, e.Name()), portable)
		if err != nil {
			return nil, err
		}
		models = append(models, m)
	}
	if len(models) == 0 {
		return nil, fmt.Errorf("zoo: no models in %s (run tools/reference/generate_zoo.py)", dir)
	}
	return models, nil
}

func loadModel(dir string, portable bool) (Model, error) {
	m := Model{
		Name:     filepath.Base(dir),
		Dir:      dir,
		PT2:      filepath.Join(dir, "model.pt2"),
		Portable: filepath.Join(dir, "portable.pte"),
		Xnnpack:  filepath.Join(dir, "xnnpack.pte"),
		Expected: map[Variant][]string{},
	}
	files, variants := []string{m.PT2, m.Portable, m.Xnnpack}, Variants
	if !portable {
		m.Portable = ""
		files, variants = []string{m.PT2, m.Xnnpack}, []Variant{Eager, Xnnpack}
	}
	for _, p := range files {
		if _, err := os.Stat(p); err != nil {
			return m, fmt.Errorf("zoo: model %s: %w", m.Name, err)
		}
	}
	var err error
	if m.Inputs, err = numbered(filepath.Join(dir, "inputs"), "input"); err != nil {
		return m, fmt.Errorf("zoo: model %s: %w", m.Name, err)
	}
	for _, v := range variants {
		outs, err := numbered(filepath.Join(dir, "expected", string(v)), "output")
		if err != nil {
			return m, fmt.Errorf("zoo: model %s: %w", m.Name, err)
		}
		if len(outs) == 0 {
			return m, fmt.Errorf("zoo: model %s has no %s outputs", m.Name, v)
		}
		m.Expected[v] = outs
	}
	raw, err := os.ReadFile(filepath.Join(dir, "delegation.json"))
	if err != nil {
		return m, fmt.Errorf("zoo: model %s: %w", m.Name, err)
	}
	if err := json.Unmarshal(raw, &m.Delegation); err != nil {
		return m, fmt.Errorf("zoo: model %s: delegation.json: %w", m.Name, err)
	}
	return m, nil
}

// numbered returns dir/<prefix>_0.npy, dir/<prefix>_1.npy, ... and refuses gaps or strays.
func numbered(dir, prefix string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var paths []string
	for i := range entries {
		name := fmt.Sprintf("%s_%d.npy", prefix, i)
		if !slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == name }) {
			return nil, fmt.Errorf("%s: expected %s among %d files", dir, name, len(entries))
		}
		paths = append(paths, filepath.Join(dir, name))
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix+"_") {
			return nil, fmt.Errorf("%s: unexpected file %s", dir, e.Name())
		}
	}
	return paths, nil
}

// LoadInputs reads the model's inputs in order.
func (m Model) LoadInputs() ([]*npy.Array, error) { return loadAll(m.Inputs) }

// LoadExpected reads the expected outputs of a variant in order.
func (m Model) LoadExpected(v Variant) ([]*npy.Array, error) { return loadAll(m.Expected[v]) }

func loadAll(paths []string) ([]*npy.Array, error) {
	out := make([]*npy.Array, len(paths))
	for i, p := range paths {
		a, err := npy.Load(p)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}
