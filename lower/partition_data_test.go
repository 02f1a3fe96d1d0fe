package lower_test

// TestPartitionData runs the partitioner cases in testdata/partition/*.txt. Each case is a
// graph, an ordered partitioner list and the plan it must give: the regions each backend
// claims and, for every node left to the portable kernels, each partitioner's reason. The
// cases are data so that the admission policy can be read (and reviewed against ExecuTorch's
// configs) case by case, and so that a change in policy shows up as a diff of expected plans:
// go test ./lower -run TestPartitionData -rewrite rewrites every want section from this run.
//
// A case file:
//
//	# Comment lines (a # in column 0) say why the cases below exist.
//	case: conv takes its weight, bias and the relu it fuses
//	partitioners: xnnpack          one or more names, in order, as `etgo lower --partitioner`; or none
//	per-op: true                   optional, `etgo lower --per-op`
//	transform-passes: none         optional, `etgo lower --transform-passes` (default recommended)
//	from: export                   optional, see below (default edge)
//	graph:
//	    in x f32[1,3,8,8]          the graph, in internal/irtext's notation, indented
//	    ...
//	want:
//	    delegate 0 XnnpackBackend: conv relu
//	        owns [w b] reads [x] writes [relu]
//	    ...                        what render gives (rewritten by -rewrite)
//
// A want section lists, in order: "pass NAME: SUMMARY" for each pass that changed the graph;
// per delegate "delegate K BACKEND: NODES" with "owns [CONSTANTS] reads [INPUTS] writes
// [OUTPUTS]" below it, then "NODE declined by BACKEND: REASON: DETAIL" for the refusals an
// earlier partitioner gave its nodes; "portable NODE (TARGET)" for every node left to the
// portable kernels, with "BACKEND: REASON: DETAIL" below it per partitioner (REASON is the
// partition.Reason code); and etgo lower's "summary: …" line. A lowering that fails is
// "error: MESSAGE" alone. Indented "#" lines in a graph are comments.
//
// The partitioners come from backends/all's registry (with backends/example added, for cases
// with two backends) through Registry.Partitioners, the transform passes through passes.Select,
// as `etgo lower --plan` makes them. The graph is, by default, the Edge graph the partitioners
// see: it must pass the Edge check (passes.VerifyEdge, which admits a non-core operator such as
// linear only when a partitioner keeps that node whole), then the transform passes and
// partition.Lower run on it. With "from: export" it is the graph torch.export wrote and goes
// through lower.ToEdgeTransformAndLower, Edge conversion included, exactly as a .pt2 does: a
// node a partitioner keeps whole only when its config admits it (linear, max_pool2d, …) is then
// decomposed when declined, and the want section shows the pieces and the passes that made
// them.

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/backends/example"
	"github.com/etgo/etgo/internal/irtext"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the want sections of testdata/partition/*.txt from this run")

// dataCase is one case of a partition data file; lines are counted from 1.
type dataCase struct {
	name         string
	line         int // the "case:" line
	partitioners []string
	perOp        bool
	transform    string
	fromExport   bool
	graph        []string // the graph section, comments blanked so line numbers hold
	graphLine    int      // the file line of graph[0] (the line after "graph:")
	hasWant      bool
	want         []string // the want section, unindented, blank lines dropped
	wantFrom     int      // file lines [wantFrom, wantTo) hold the want section's body
	wantTo       int
}

// indented reports a line belonging to the section above it.
func indented(line string) bool { return strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") }

// parseDataFile splits a case file into cases. Errors name the file and line.
func parseDataFile(path string, src string) ([]*dataCase, error) {
	lines := strings.Split(src, "\n")
	var cases []*dataCase
	var c *dataCase
	section := "" // "graph", "want" or "" (directives)
	wantIndent := ""
	bad := func(i int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", path, i+1, fmt.Sprintf(format, args...))
	}
	seen := map[string]int{}
	for i, line := range lines {
		if strings.TrimSpace(line) == "" {
			if section == "graph" {
				c.graph = append(c.graph, "")
			}
			continue
		}
		if indented(line) {
			text := strings.TrimSpace(line)
			switch section {
			case "graph":
				if strings.HasPrefix(text, "#") {
					text = "" // irtext has no comments; a blank keeps the numbering
				}
				c.graph = append(c.graph, text)
			case "want":
				// Nested indentation is part of the plan: only the section's own indent,
				// the first line's, is dropped.
				if len(c.want) == 0 {
					wantIndent = line[:len(line)-len(strings.TrimLeft(line, " \t"))]
				}
				if !strings.HasPrefix(line, wantIndent) {
					return nil, bad(i, "want: line indented less than the section's first line")
				}
				c.want = append(c.want, strings.TrimRight(line[len(wantIndent):], " \t"))
				c.wantTo = i + 1
			default:
				return nil, bad(i, "indented line outside a graph: or want: section")
			}
			continue
		}
		section = ""
		if strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		value = strings.TrimSpace(value)
		if !ok {
			return nil, bad(i, "%q is not a directive (case:, partitioners:, per-op:, transform-passes:, from:, graph:, want:)", line)
		}
		if key == "case" {
			if value == "" {
				return nil, bad(i, "case: needs a name")
			}
			if prev, dup := seen[value]; dup {
				return nil, bad(i, "case %q is already defined on line %d", value, prev)
			}
			seen[value] = i + 1
			c = &dataCase{name: value, line: i + 1, transform: "recommended"}
			cases = append(cases, c)
			continue
		}
		if c == nil {
			return nil, bad(i, "%s: before the first case:", key)
		}
		if c.hasWant {
			return nil, bad(i, "%s: after want: (want: ends a case)", key)
		}
		switch key {
		case "partitioners":
			for _, name := range strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' }) {
				c.partitioners = append(c.partitioners, name)
			}
			if len(c.partitioners) == 0 {
				return nil, bad(i, "partitioners: needs at least one name (or none)")
			}
		case "per-op":
			if value != "true" && value != "false" {
				return nil, bad(i, "per-op: is true or false, not %q", value)
			}
			c.perOp = value == "true"
		case "transform-passes":
			c.transform = value
		case "from":
			if value != "edge" && value != "export" {
				return nil, bad(i, "from: is edge or export, not %q", value)
			}
			c.fromExport = value == "export"
		case "graph":
			if value != "" {
				return nil, bad(i, "graph: starts an indented section; put the statements on the lines below")
			}
			if c.graph != nil {
				return nil, bad(i, "a second graph: section in case %q", c.name)
			}
			// Every line from here to the section's end goes into c.graph, blank ones too,
			// so graph[k] is file line graphLine+k.
			section, c.graph, c.graphLine = "graph", []string{}, i+2
		case "want":
			if value != "" {
				return nil, bad(i, "want: starts an indented section; put the plan on the lines below")
			}
			section, c.hasWant = "want", true
			c.wantFrom, c.wantTo = i+1, i+1
		default:
			return nil, bad(i, "unknown directive %q", key)
		}
	}
	for _, c := range cases {
		switch {
		case c.partitioners == nil:
			return nil, fmt.Errorf("%s:%d: case %q has no partitioners: line", path, c.line, c.name)
		case len(slices.DeleteFunc(slices.Clone(c.graph), func(s string) bool { return s == "" })) == 0:
			return nil, fmt.Errorf("%s:%d: case %q has no graph", path, c.line, c.name)
		case !c.hasWant:
			return nil, fmt.Errorf("%s:%d: case %q has no want: section (an empty one is filled by -rewrite)", path, c.line, c.name)
		}
	}
	return cases, nil
}

// dataRegistry is etgo lower's registry plus the example backend, so that cases can order two
// backends.
func dataRegistry(t *testing.T) *backends.Registry {
	reg := all.Registry()
	if err := reg.Register(example.AheadOfTime()); err != nil {
		t.Fatal(err)
	}
	return reg
}

// runCase lowers the case's graph as etgo lower --plan does and renders the outcome; a failure
// of the lowering is part of the outcome (a case may expect it), a graph irtext cannot read is
// the file's error.
func runCase(reg *backends.Registry, path string, c *dataCase) ([]string, error) {
	g, err := irtext.ParseLines(c.graph)
	if err != nil {
		var e *irtext.Error
		if errors.As(err, &e) {
			return nil, fmt.Errorf("%s:%d: %v (in the graph of case %q)", path, c.graphLine+e.Line-1, e.Err, c.name)
		}
		return nil, fmt.Errorf("%s:%d: %v", path, c.graphLine, err)
	}
	names := c.partitioners
	if len(names) == 1 && names[0] == "none" {
		names = nil // etgo lower's "none": no delegate
	}
	fail := func(err error) ([]string, error) { return []string{"error: " + err.Error()}, nil }
	parts, recommended, err := reg.Partitioners(names, backends.Options{PerOp: c.perOp})
	if err != nil {
		return fail(err)
	}
	transform, err := passes.Select(c.transform, recommended)
	if err != nil {
		return fail(err)
	}
	if c.fromExport {
		edge, err := lower.ToEdgeTransformAndLower(g, lower.Options{Partitioners: parts, TransformPasses: transform})
		if err != nil {
			return fail(err)
		}
		return render(edge.Reports, edge.Plan), nil
	}
	// ToEdgeTransformAndLower without the conversion: the same preserve list, the same passes,
	// the same partition.Lower (its last step, dropping runtime assertions from the remaining
	// graph, changes no decision).
	var preserve []passes.Preserve
	for _, p := range parts {
		ops, keep := p.OpsToNotDecompose()
		preserve = append(preserve, passes.Preserve{Ops: ops, Keep: keep})
	}
	if err := passes.VerifyEdge(g, preserve); err != nil {
		return fail(fmt.Errorf("the graph is not an Edge graph (from: export converts it first): %w", err))
	}
	reports, err := passes.NewManager(transform...).Run(g)
	if err != nil {
		return fail(err)
	}
	plan, err := partition.Lower(g, parts)
	if err != nil {
		return fail(err)
	}
	return render(reports, plan), nil
}

// render is the plan as the want sections state it: the passes that changed the graph, each
// delegate (backend, claimed nodes in graph order, owned constants, boundary values, and the
// refusals earlier partitioners gave its nodes), each node left to the portable kernels with
// every partitioner's reason, and the summary line etgo lower prints.
func render(reports []passes.Report, plan *partition.Plan) []string {
	var out []string
	for _, r := range reports {
		if r.Changed {
			out = append(out, fmt.Sprintf("pass %s: %s", r.Pass, r.Summary))
		}
	}
	declines := func(d partition.Decision) []string {
		var s []string
		for _, x := range d.Declines {
			s = append(s, fmt.Sprintf("%s: %s: %s", x.BackendID, x.Reason, x.Detail))
		}
		return s
	}
	names := func(vs []string) string { return "[" + strings.Join(vs, " ") + "]" }
	for i, d := range plan.Delegates {
		var nodes, owns, reads, writes []string
		for _, n := range d.Region.Nodes {
			nodes = append(nodes, n.Name)
		}
		for _, v := range d.Region.Constants {
			owns = append(owns, v.Name)
		}
		for _, v := range d.Call.Args[0].Values {
			reads = append(reads, v.Name)
		}
		for _, v := range d.Call.Outputs {
			writes = append(writes, v.Name)
		}
		out = append(out, fmt.Sprintf("delegate %d %s: %s", i, d.Spec.BackendID, strings.Join(nodes, " ")))
		out = append(out, fmt.Sprintf("    owns %s reads %s writes %s", names(owns), names(reads), names(writes)))
		for _, dec := range plan.Decisions {
			if dec.Delegate == i {
				for _, s := range declines(dec) {
					out = append(out, fmt.Sprintf("    %s declined by %s", dec.Node, s))
				}
			}
		}
	}
	for _, dec := range plan.Decisions {
		if dec.Delegate >= 0 {
			continue
		}
		out = append(out, fmt.Sprintf("portable %s (%s)", dec.Node, dec.Target))
		for _, s := range declines(dec) {
			out = append(out, "    "+s)
		}
	}
	return append(out, "summary: "+plan.Summary())
}

func TestPartitionData(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "partition", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no case files in testdata/partition")
	}
	reg := dataRegistry(t)
	total := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := parseDataFile(path, string(src))
		if err != nil {
			t.Error(err)
			continue
		}
		total += len(cases)
		lines := strings.Split(string(src), "\n")
		// Replaced from the last case up, so earlier line ranges stay valid.
		var edits []func()
		for _, c := range cases {
			got, err := runCase(reg, path, c)
			if err != nil {
				t.Error(err)
				continue
			}
			if slices.Equal(got, c.want) {
				continue
			}
			if *rewrite {
				body := make([]string, len(got))
				for i, s := range got {
					body[i] = "    " + s
				}
				edits = append(edits, func() { lines = slices.Replace(lines, c.wantFrom, c.wantTo, body...) })
				continue
			}
			t.Errorf("%s:%d: case %q (go test ./lower -run TestPartitionData -rewrite rewrites it):\n got:\n    %s\nwant:\n    %s",
				path, c.line, c.name, strings.Join(got, "\n    "), strings.Join(c.want, "\n    "))
		}
		if len(edits) > 0 {
			for i := len(edits) - 1; i >= 0; i-- {
				edits[i]()
			}
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote %d case(s) in %s", len(edits), path)
		}
	}
	t.Logf("%d cases in %d files", total, len(files))
}

// TestPartitionDataErrors: a malformed case file is refused with its file and line, down to a
// bad statement inside a graph.
func TestPartitionDataErrors(t *testing.T) {
	reg := dataRegistry(t)
	for _, tc := range []struct{ name, src, want string }{
		{"directive before a case", "partitioners: xnnpack\n", "f.txt:1: partitioners: before the first case:"},
		{"unknown directive", "case: a\nfrobnicate: yes\n", "f.txt:2: unknown directive \"frobnicate\""},
		{"not a directive", "case: a\nin x f32[2]\n", "f.txt:2: \"in x f32[2]\" is not a directive"},
		{"indented outside a section", "case: a\n    in x f32[2]\n", "f.txt:2: indented line outside"},
		{"duplicate name", "case: a\npartitioners: none\ngraph:\n  in x f32[2]\n  out x\nwant:\ncase: a\n", "f.txt:7: case \"a\" is already defined on line 1"},
		{"no partitioners", "case: a\ngraph:\n  in x f32[2]\nwant:\n", "f.txt:1: case \"a\" has no partitioners"},
		{"no want", "case: a\npartitioners: none\ngraph:\n  in x f32[2]\n", "f.txt:1: case \"a\" has no want: section"},
		{"bad per-op", "case: a\nper-op: yes\n", "f.txt:2: per-op: is true or false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseDataFile("f.txt", tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	// A statement irtext cannot read is reported at its line in the file, past the blank
	// lines and the comment before it.
	src := "# header\ncase: a\npartitioners: xnnpack\ngraph:\n\n    in x f32[2]\n    # a comment\n\n    y = aten.relu.default(self=nope) -> f32[2]\n    out y\nwant:\n"
	cases, err := parseDataFile("f.txt", src)
	if err != nil {
		t.Fatal(err)
	}
	_, err = runCase(reg, "f.txt", cases[0])
	if err == nil || !strings.Contains(err.Error(), `f.txt:9: unknown value "nope"`) {
		t.Errorf("got %v, want the error at f.txt:9", err)
	}
}
