// Package passes transforms an ir.Graph before partitioning: a manager runs named passes in
// order, each reporting what it changed, and the per-backend "recommended" set is what
// ExecuTorch's get_transform_passes() returns (for XNNPACK, RemoveNoopExpandCopyPass).
//
// Passes keep ir's invariants: topological order, one producer per value, no dangling uses.
package passes

import (
	"fmt"
	"strings"

	"github.com/etgo/etgo/ir"
)

// Pass is one graph transformation.
type Pass interface {
	// Name is the pass's ExecuTorch name, e.g. "RemoveNoopExpandCopyPass".
	Name() string
	// Run transforms g in place and describes what it changed ("" when nothing).
	Run(g *ir.Graph) (string, error)
}

// Report is what one pass did.
type Report struct {
	Pass    string `json:"pass"`
	Changed bool   `json:"changed"`
	Summary string `json:"summary"`
}

// Changes is a pass's summary of n changes: "" when there were none (so Report.Changed is
// false), else format with n, as in Changes(k, "removed %d identity clone(s)").
func Changes(n int, format string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(format, n)
}

// Manager runs passes in order.
type Manager struct {
	passes   []Pass
	disabled map[string]bool
}

// NewManager returns a manager for passes, run in the order given.
func NewManager(passes ...Pass) *Manager {
	return &Manager{passes: passes, disabled: map[string]bool{}}
}

// Disable skips the pass with the given name; it is an error to name an unknown pass.
func (m *Manager) Disable(name string) error {
	for _, p := range m.passes {
		if p.Name() == name {
			m.disabled[name] = true
			return nil
		}
	}
	return fmt.Errorf("passes: no pass %q in %s", name, m)
}

func (m *Manager) String() string {
	names := make([]string, len(m.passes))
	for i, p := range m.passes {
		names[i] = p.Name()
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// Run applies every enabled pass and reports each.
func (m *Manager) Run(g *ir.Graph) ([]Report, error) {
	var reports []Report
	for _, p := range m.passes {
		if m.disabled[p.Name()] {
			continue
		}
		summary, err := p.Run(g)
		if err != nil {
			return reports, fmt.Errorf("passes: %s: %w", p.Name(), err)
		}
		reports = append(reports, Report{Pass: p.Name(), Changed: summary != "", Summary: summary})
	}
	return reports, nil
}

// All lists every pass by name.
var All = map[string]func() Pass{
	"RemoveNoopExpandCopyPass":          func() Pass { return RemoveNoopExpandCopy{} },
	"DeadCodeElimination":               func() Pass { return DeadCodeElimination{} },
	"ReplaceViewOpsWithViewCopyOpsPass": func() Pass { return ReplaceViewOps{} },
}

// Select parses the --transform-passes flag: "recommended" (the partitioners' backends'
// recommended passes, given by the caller: see backends.Registry.Partitioners), "none", or a
// comma-separated list of pass names.
func Select(spec string, recommended []Pass) ([]Pass, error) {
	switch spec {
	case "recommended":
		return recommended, nil
	case "none", "":
		return nil, nil
	}
	var out []Pass
	for _, name := range strings.Split(spec, ",") {
		mk, ok := All[strings.TrimSpace(name)]
		if !ok {
			known := make([]string, 0, len(All))
			for k := range All {
				known = append(known, k)
			}
			return nil, fmt.Errorf("passes: unknown pass %q (known: %s)", name, strings.Join(known, ", "))
		}
		out = append(out, mk())
	}
	return out, nil
}
