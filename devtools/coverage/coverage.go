// Package coverage is each backend's share of a partition plan, with the portable kernels as
// one more row: by operator count and by estimated work (partition.FLOPs), so that a program
// lowered with several partitioners ([VulkanPartitioner(), XnnpackPartitioner()]) reads as what
// each backend took and what was left. The backends are read from the plan's delegates (their
// backend ids), never assumed; the rows of every backend and the portable row add up to the
// whole graph. The plan JSON, the text plan, the Graphviz picture and the HTML page all show
// these rows, and Colours gives them the same colour order.
package coverage

import (
	"fmt"
	"io"
	"slices"

	"github.com/etgo/etgo/internal/human"
	"github.com/etgo/etgo/partition"
)

// Portable is the row name of the operators no partitioner took.
const Portable = "portable"

// Share is one backend's part of a plan, or the portable kernels'.
type Share struct {
	// BackendID is the delegates' backend id ("XnnpackBackend"), or Portable.
	BackendID string `json:"backend_id"`
	// Regions counts the backend's delegates (0 for the portable row).
	Regions int `json:"regions"`
	// Operators counts the input graph's nodes the backend took (left, for the portable row);
	// FLOPs is their estimated work.
	Operators int   `json:"operators"`
	FLOPs     int64 `json:"flops"`
}

// Table is the plan's shares: every backend in the order its first delegate appears, then the
// portable kernels.
type Table struct {
	// Operators and FLOPs are the whole input graph's.
	Operators int     `json:"operators"`
	FLOPs     int64   `json:"flops"`
	Backends  []Share `json:"backends"`
	Portable  Share   `json:"portable"`
}

// Of tallies plan.
func Of(plan *partition.Plan) Table {
	t := Table{Operators: len(plan.Decisions), Backends: []Share{}, Portable: Share{BackendID: Portable}}
	at := map[string]int{}
	for _, d := range plan.Delegates {
		i, ok := at[d.Spec.BackendID]
		if !ok {
			i = len(t.Backends)
			at[d.Spec.BackendID] = i
			t.Backends = append(t.Backends, Share{BackendID: d.Spec.BackendID})
		}
		t.Backends[i].Regions++
	}
	for _, dec := range plan.Decisions {
		t.FLOPs += dec.FLOPs
		s := &t.Portable
		if dec.Delegate >= 0 && dec.Delegate < len(plan.Delegates) {
			s = &t.Backends[at[plan.Delegates[dec.Delegate].Spec.BackendID]]
		}
		s.Operators++
		s.FLOPs += dec.FLOPs
	}
	return t
}

// Rows is the backends' rows, then the portable row.
func (t Table) Rows() []Share {
	return append(append([]Share{}, t.Backends...), t.Portable)
}

// BackendIDs lists the backends in the order of their rows.
func (t Table) BackendIDs() []string {
	ids := make([]string, len(t.Backends))
	for i, s := range t.Backends {
		ids[i] = s.BackendID
	}
	return ids
}

// CountShare and WorkShare are s's share of t's operators and of its work, "42.1 %".
func (t Table) CountShare(s Share) string {
	return human.Percent(int64(s.Operators), int64(t.Operators))
}
func (t Table) WorkShare(s Share) string { return human.Percent(s.FLOPs, t.FLOPs) }

// WriteText prints the table: one row per backend and one for the portable kernels.
func (t Table) WriteText(w io.Writer) {
	fmt.Fprintf(w, "  %-20s %7s %18s %26s\n", "by backend", "regions", "operators", "estimated work")
	for _, s := range t.Rows() {
		regions := fmt.Sprint(s.Regions)
		if s.BackendID == Portable {
			regions = "-"
		}
		fmt.Fprintf(w, "  %-20s %7s %9s %8s %15s %10s\n", s.BackendID, regions,
			fmt.Sprintf("%d/%d", s.Operators, t.Operators), t.CountShare(s), human.FLOPs(s.FLOPs)+" FLOP", t.WorkShare(s))
	}
}

// Colours gives each backend of ids a colour of palette, in the order of the sorted backend
// ids, so that every region of one backend is drawn alike, a picture of a mixed program shows
// which backend took what, and the plan's picture and the program's (whose delegates may come
// in another order) agree. Backends past the palette's length reuse it from the start.
func Colours(ids []string, palette []string) map[string]string {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	m := map[string]string{}
	for _, id := range slices.Compact(sorted) {
		m[id] = palette[len(m)%len(palette)]
	}
	return m
}
