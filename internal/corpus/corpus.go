// Package corpus reads testdata/corpus, the public model corpus: torchvision's models,
// ExecuTorch's example models and Hugging Face transformers models, reduced and built with
// seeded random weights by tools/reference/generate_corpus.py, which also records in
// report.json what the official toolchain and etgo each did with every model.
//
// A committed model folder holds model.pt2, inputs/input_<i>.npy and expected/eager/output_<i>.npy,
// and, when the official toolchain lowered the model, xnnpack.pte, expected/xnnpack/output_<i>.npy
// and delegation.json (as in the zoo). The report also lists the models that are not committed
// (torch.export failed, or the files were too large), so the corpus's coverage is one file.
package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/etgo/etgo/internal/zoo"
)

// Report is report.json.
type Report struct {
	Versions map[string]*string `json:"versions"`
	Models   []Entry            `json:"models"`
}

// Entry is one model's record. A nil column was not tried (an earlier step failed).
type Entry struct {
	Name        string `json:"name"`
	Source      string `json:"source"`
	Description string `json:"description"`
	Committed   bool   `json:"committed"`

	Exported                bool  `json:"exported"`
	OfficialLowers          *bool `json:"official_lowers"`
	OfficialRunsOfficialPTE *bool `json:"official_runs_official_pte"`

	PlanEqual           *bool  `json:"plan_equal"`
	EtgoLowers          *bool  `json:"etgo_lowers"`
	EtgoError           string `json:"etgo_error"` // first line of etgo's error when it does not lower
	OfficialRunsEtgoPTE *bool  `json:"official_runs_etgo_pte"`
	EtgoRunsOfficialPTE *bool  `json:"etgo_runs_official_pte"`
	EtgoRunsEtgoPTE     *bool  `json:"etgo_runs_etgo_pte"`

	Note  string            `json:"note"`
	Notes map[string]string `json:"notes"`
}

// Model is a committed model: its record and absolute paths to its files.
type Model struct {
	Entry
	Dir     string
	PT2     string
	Xnnpack string // "" when the official toolchain did not lower the model
	Inputs  []string
	Eager   []string
	// Delegation is delegation.json, nil when there is no xnnpack.pte.
	Delegation *zoo.Delegation
}

// Load reads dir/report.json and every committed model's files. A committed model whose
// files are missing, or a model folder the report does not list as committed, is an error:
// the report and the folders must describe the same corpus.
func Load(dir string) (*Report, []Model, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		return nil, nil, fmt.Errorf("corpus: %w", err)
	}
	var r Report
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, nil, fmt.Errorf("corpus: report.json: %w", err)
	}
	committed := map[string]bool{}
	var models []Model
	for _, e := range r.Models {
		if !e.Committed {
			continue
		}
		committed[e.Name] = true
		m, err := loadModel(filepath.Join(dir, e.Name), e)
		if err != nil {
			return nil, nil, err
		}
		models = append(models, m)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("corpus: %w", err)
	}
	for _, d := range entries {
		if d.IsDir() && !committed[d.Name()] {
			return nil, nil, fmt.Errorf("corpus: folder %s is not a committed model of report.json (rerun tools/reference/generate_corpus.py)", d.Name())
		}
	}
	return &r, models, nil
}

func loadModel(dir string, e Entry) (Model, error) {
	m := Model{Entry: e, Dir: dir, PT2: filepath.Join(dir, "model.pt2")}
	fail := func(err error) (Model, error) { return m, fmt.Errorf("corpus: model %s: %w", e.Name, err) }
	if _, err := os.Stat(m.PT2); err != nil {
		return fail(err)
	}
	var err error
	if m.Inputs, err = numbered(filepath.Join(dir, "inputs"), "input"); err != nil {
		return fail(err)
	}
	if m.Eager, err = numbered(filepath.Join(dir, "expected", "eager"), "output"); err != nil {
		return fail(err)
	}
	if len(m.Eager) == 0 {
		return fail(fmt.Errorf("no eager outputs"))
	}
	xnn := filepath.Join(dir, "xnnpack.pte")
	if _, err := os.Stat(xnn); err == nil {
		m.Xnnpack = xnn
		raw, err := os.ReadFile(filepath.Join(dir, "delegation.json"))
		if err != nil {
			return fail(err)
		}
		m.Delegation = new(zoo.Delegation)
		if err := json.Unmarshal(raw, m.Delegation); err != nil {
			return fail(fmt.Errorf("delegation.json: %w", err))
		}
	} else if e.OfficialLowers != nil && *e.OfficialLowers {
		return fail(fmt.Errorf("the report says the official toolchain lowered it, but %w", err))
	}
	return m, nil
}

// numbered lists dir/<prefix>_0.npy, _1, … up to the first missing index.
func numbered(dir, prefix string) ([]string, error) {
	var out []string
	for i := 0; ; i++ {
		p := filepath.Join(dir, fmt.Sprintf("%s_%d.npy", prefix, i))
		if _, err := os.Stat(p); err != nil {
			break
		}
		out = append(out, p)
	}
	entries, err := os.ReadDir(dir)
	if err != nil && len(out) > 0 {
		return nil, err
	}
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix+"_") && strings.HasSuffix(e.Name(), ".npy") {
			n++
		}
	}
	if n != len(out) {
		return nil, fmt.Errorf("%s: %d %s files, but only %d numbered from 0", dir, n, prefix, len(out))
	}
	return out, nil
}
