// Package planviz draws a partition plan as a Graphviz graph: the Edge graph's operators, each
// delegate's region as a cluster labelled with its backend and filled with that backend's colour
// (every region of one backend alike, so a plan of several partitioners shows which backend took
// what), the operators left to the portable kernels outlined in red, the user inputs and
// outputs, and the tensors flowing between them with their shapes. A legend gives each backend's
// colour and its share of the operators and of the estimated work, and the portable kernels'.
// Tensors that cross a region's border are the boundary a fragmented plan pays for, so those
// edges are drawn bold.
//
//	etgo lower MODEL.pt2 --plan --dot plan.dot && dot -Tsvg plan.dot -o plan.svg
package planviz

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/etgo/etgo/devtools/coverage"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
)

// palette colours the clusters of successive backends.
var palette = []string{"#dbeafe", "#dcfce7", "#fef3c7", "#fce7f3", "#e0e7ff", "#ccfbf1"}

// WriteDOT writes plan as a DOT digraph named title.
func WriteDOT(w io.Writer, title string, plan *partition.Plan) error {
	b := bufio.NewWriter(w)
	// Where each value was computed: collapsing a region re-points its outputs at the call node,
	// so producers are read from the nodes themselves.
	producer := map[*ir.Value]*ir.Node{}
	region := map[*ir.Node]int{}
	var fallback []*ir.Node
	for k, d := range plan.Delegates {
		for _, n := range d.Region.Nodes {
			region[n] = k
			for _, v := range n.Outputs {
				if v != nil {
					producer[v] = n
				}
			}
		}
	}
	calls := map[*ir.Node]bool{}
	for _, d := range plan.Delegates {
		calls[d.Call] = true
	}
	for _, n := range plan.Graph.Nodes {
		if calls[n] {
			continue
		}
		region[n] = -1
		fallback = append(fallback, n)
		for _, v := range n.Outputs {
			if v != nil {
				producer[v] = n
			}
		}
	}
	id := map[*ir.Node]string{}
	next := 0
	nodeID := func(n *ir.Node) string {
		if s, ok := id[n]; ok {
			return s
		}
		s := fmt.Sprintf("n%d", next)
		next++
		id[n] = s
		return s
	}
	fmt.Fprintf(b, "digraph %s {\n", quote(title))
	fmt.Fprintf(b, "  label=%s; labelloc=t; fontname=Helvetica;\n", quote(title+": "+plan.Summary()))
	fmt.Fprintln(b, "  rankdir=TB; node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=Helvetica, fontsize=10]; edge [fontname=Helvetica, fontsize=8, color=\"#555555\"];")
	inputs := map[*ir.Value]string{}
	for i, in := range plan.Graph.Inputs {
		if in.Kind != ir.UserInput || in.Value == nil {
			continue
		}
		s := fmt.Sprintf("in%d", i)
		inputs[in.Value] = s
		fmt.Fprintf(b, "  %s [shape=ellipse, fillcolor=\"#f3f4f6\", label=%s];\n", s, quote(in.Value.Name+"\n"+meta(in.Value)))
	}
	tab := coverage.Of(plan)
	colour := coverage.Colours(tab.BackendIDs(), palette)
	for k, d := range plan.Delegates {
		fmt.Fprintf(b, "  subgraph cluster_%d {\n    label=%s; style=\"rounded,filled\"; fillcolor=%s; color=\"#64748b\";\n", k,
			quote(fmt.Sprintf("%s #%d: %d operators", d.Spec.BackendID, k, len(d.Region.Nodes))), quote(colour[d.Spec.BackendID]))
		for _, n := range d.Region.Nodes {
			fmt.Fprintf(b, "    %s [label=%s];\n", nodeID(n), quote(label(n)))
		}
		fmt.Fprintln(b, "  }")
	}
	for _, n := range fallback {
		fmt.Fprintf(b, "  %s [label=%s, color=\"#dc2626\", penwidth=2, tooltip=\"portable kernels\"];\n", nodeID(n), quote(label(n)+"\n(portable)"))
	}
	edge := func(from string, fromRegion int, v *ir.Value, to *ir.Node) {
		attrs := []string{"label=" + quote(meta(v))}
		if fromRegion != region[to] {
			attrs = append(attrs, "penwidth=2", "color=\"#111827\"")
		}
		fmt.Fprintf(b, "  %s -> %s [%s];\n", from, nodeID(to), strings.Join(attrs, ", "))
	}
	all := make([]*ir.Node, 0, len(region))
	for _, d := range plan.Delegates {
		all = append(all, d.Region.Nodes...)
	}
	all = append(all, fallback...)
	for _, n := range all {
		seen := map[*ir.Value]bool{}
		for _, a := range n.Args {
			for _, v := range a.Values {
				if v == nil || seen[v] || v.Kind != ir.TensorValue {
					continue
				}
				seen[v] = true
				if p, ok := producer[v]; ok {
					edge(nodeID(p), region[p], v, n)
				} else if s, ok := inputs[v]; ok {
					edge(s, -2, v, n)
				}
			}
		}
	}
	for i, o := range plan.Graph.Outputs {
		if o.Value == nil {
			continue
		}
		s := fmt.Sprintf("out%d", i)
		fmt.Fprintf(b, "  %s [shape=ellipse, fillcolor=\"#f3f4f6\", label=%s];\n", s, quote(fmt.Sprintf("output %d\n%s", i, meta(o.Value))))
		if p, ok := producer[o.Value]; ok {
			fmt.Fprintf(b, "  %s -> %s [penwidth=2, color=\"#111827\"];\n", nodeID(p), s)
		} else if in, ok := inputs[o.Value]; ok {
			fmt.Fprintf(b, "  %s -> %s;\n", in, s)
		}
	}
	writeLegend(b, tab, colour)
	fmt.Fprintln(b, "}")
	return b.Flush()
}

// writeLegend draws one box per backend in its colour and one for the portable kernels, each
// with its share of the graph's operators and of its estimated work.
func writeLegend(b io.Writer, tab coverage.Table, colour map[string]string) {
	fmt.Fprintln(b, "  subgraph cluster_legend {\n    label=\"legend\"; style=rounded; color=\"#94a3b8\"; fontsize=10;")
	var ids []string
	for i, s := range tab.Rows() {
		id := fmt.Sprintf("legend%d", i)
		ids = append(ids, id)
		text := fmt.Sprintf("%s: %d regions, %d of %d operators (%s), %s of the work", s.BackendID, s.Regions,
			s.Operators, tab.Operators, tab.CountShare(s), tab.WorkShare(s))
		if s.BackendID == coverage.Portable {
			text = fmt.Sprintf("portable kernels: %d of %d operators (%s), %s of the work", s.Operators, tab.Operators, tab.CountShare(s), tab.WorkShare(s))
			fmt.Fprintf(b, "    %s [label=%s, color=\"#dc2626\", penwidth=2];\n", id, quote(text))
			continue
		}
		fmt.Fprintf(b, "    %s [label=%s, fillcolor=%s];\n", id, quote(text), quote(colour[s.BackendID]))
	}
	if len(ids) > 1 {
		fmt.Fprintf(b, "    %s [style=invis];\n", strings.Join(ids, " -> "))
	}
	fmt.Fprintln(b, "  }")
}

func label(n *ir.Node) string {
	return n.Name + "\n" + strings.TrimSuffix(n.Target, ".default")
}

func meta(v *ir.Value) string {
	if v.Meta == nil {
		return ""
	}
	return v.Meta.String()
}

// quote makes a DOT string literal.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
