package htmlreport

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"

	"github.com/etgo/etgo/devtools/coverage"
	"github.com/etgo/etgo/internal/human"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
)

// palette colours successive backends, every delegate of one backend alike (the fallback is
// red-outlined white).
var palette = []string{"#93c5fd", "#86efac", "#fcd34d", "#f9a8d4", "#c4b5fd", "#5eead4", "#fdba74", "#d9f99d", "#a5b4fc", "#fca5a5"}

// Report is what the page shows.
type Report struct {
	// Title names the model ("model.pt2").
	Title string
	Plan  *partition.Plan
}

type regionRow struct {
	Index           int
	Backend, Colour string
	Operators       int
	Ops             string // "3 convolution, 2 relu"
	Inputs, Outputs []string
	InBytes         int64
	OutBytes        int64
}

type fallbackRow struct {
	Node, Target string
	Declines     []string
}

type coverageRow struct {
	Backend, Colour            string
	Delegated, Operators       int
	CountShare, WorkShare      string
	Regions, Crossings         int
	CrossingBytes              string
	DelegatedFLOPs, TotalFLOPs string
	WorkBar, CountBar          float64
}

type boundaryRow struct {
	Tensor, Shape, Bytes, From, To string
}

// legendRow is one backend's colour and its regions.
type legendRow struct {
	Backend, Colour string
	Regions         []int
}

type page struct {
	Title     string
	Summary   string
	Coverage  []coverageRow
	Portable  coverageRow
	Legend    []legendRow
	Regions   []regionRow
	Fallback  []fallbackRow
	Boundary  []boundaryRow
	SVG       template.HTML
	Width     float64
	Height    float64
	Operators int
}

// Write renders the report as one HTML page.
func Write(w io.Writer, r Report) error {
	plan := r.Plan
	if plan == nil {
		return fmt.Errorf("htmlreport: no plan")
	}
	decisions := map[string]*partition.Decision{}
	for i := range plan.Decisions {
		decisions[plan.Decisions[i].Node] = &plan.Decisions[i]
	}
	d := build(plan, decisions)
	tab := coverage.Of(plan)
	colour := coverage.Colours(tab.BackendIDs(), palette)
	for i := range d.nodes {
		if n := &d.nodes[i]; n.kind == "delegated" {
			n.fill = colour[plan.Delegates[n.region].Spec.BackendID]
		}
	}
	p := page{Title: r.Title, Summary: plan.Summary(), Operators: len(plan.Decisions)}
	for _, s := range tab.Backends {
		p.Legend = append(p.Legend, legendRow{Backend: s.BackendID, Colour: colour[s.BackendID]})
	}
	for k, del := range plan.Delegates {
		for i := range p.Legend {
			if p.Legend[i].Backend == del.Spec.BackendID {
				p.Legend[i].Regions = append(p.Legend[i].Regions, k)
			}
		}
	}
	port := tab.Portable
	p.Portable = coverageRow{Backend: "portable kernels", Delegated: port.Operators, Operators: tab.Operators,
		CountShare: tab.CountShare(port), WorkShare: tab.WorkShare(port),
		CountBar: share(int64(port.Operators), int64(tab.Operators)), WorkBar: share(port.FLOPs, tab.FLOPs),
		DelegatedFLOPs: human.FLOPs(port.FLOPs) + " FLOP", TotalFLOPs: human.FLOPs(tab.FLOPs) + " FLOP"}
	for _, c := range plan.Coverage() {
		p.Coverage = append(p.Coverage, coverageRow{
			Backend: c.BackendID, Colour: colour[c.BackendID], Delegated: c.Delegated, Operators: c.Operators,
			CountShare: human.Percent(int64(c.Delegated), int64(c.Operators)), WorkShare: human.Percent(c.DelegatedFLOPs, c.FLOPs),
			CountBar: share(int64(c.Delegated), int64(c.Operators)), WorkBar: share(c.DelegatedFLOPs, c.FLOPs),
			Regions: c.Regions, Crossings: c.Inputs + c.Outputs, CrossingBytes: human.Bytes(c.InputBytes + c.OutputBytes),
			DelegatedFLOPs: human.FLOPs(c.DelegatedFLOPs) + " FLOP", TotalFLOPs: human.FLOPs(c.FLOPs) + " FLOP",
		})
	}
	for k, del := range plan.Delegates {
		row := regionRow{Index: k, Backend: del.Spec.BackendID, Colour: colour[del.Spec.BackendID], Operators: len(del.Region.Nodes)}
		counts := map[string]int{}
		for _, n := range del.Region.Nodes {
			counts[short(n.Target)]++
		}
		row.Ops = countList(counts)
		for _, a := range del.Call.Args {
			for _, v := range a.Values {
				if v != nil && v.Kind == ir.TensorValue {
					row.Inputs = append(row.Inputs, v.Name+" "+meta(v))
					row.InBytes += tensorBytes(v)
				}
			}
		}
		for _, v := range del.Call.Outputs {
			if v != nil && v.Kind == ir.TensorValue {
				row.Outputs = append(row.Outputs, v.Name+" "+meta(v))
				row.OutBytes += tensorBytes(v)
			}
		}
		p.Regions = append(p.Regions, row)
	}
	for _, dec := range plan.Decisions {
		if dec.Delegate >= 0 {
			continue
		}
		row := fallbackRow{Node: dec.Node, Target: dec.Target}
		for _, x := range dec.Declines {
			row.Declines = append(row.Declines, fmt.Sprintf("%s: %s: %s", x.BackendID, x.Reason, x.Detail))
		}
		p.Fallback = append(p.Fallback, row)
	}
	where := func(n node) string {
		switch {
		case n.kind == "input":
			return "input"
		case n.kind == "output":
			return "output"
		case n.region >= 0:
			return fmt.Sprintf("delegate %d", n.region)
		}
		return "portable " + n.name
	}
	seen := map[[2]string]bool{}
	for _, e := range d.edges {
		if !e.boundary {
			continue
		}
		from, to := where(d.nodes[e.from]), where(d.nodes[e.to])
		if k := [2]string{e.name, to}; !seen[k] {
			seen[k] = true
			p.Boundary = append(p.Boundary, boundaryRow{Tensor: e.name, Shape: e.meta, Bytes: human.Bytes(e.bytes), From: from, To: to})
		}
	}
	p.SVG = template.HTML(d.svg())
	p.Width, p.Height = d.size()
	return pageTemplate.Execute(w, p)
}

func tensorBytes(v *ir.Value) int64 {
	if v.Meta == nil {
		return 0
	}
	n := int64(1)
	for _, s := range v.Meta.Sizes {
		n *= max(s.Size, 0)
	}
	return n * int64(v.Meta.DType.Size())
}

func countList(counts map[string]int) string {
	names := make([]string, 0, len(counts))
	for k := range counts {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%d %s", counts[n], n)
	}
	return strings.Join(parts, ", ")
}

func share(a, b int64) float64 {
	if b <= 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
