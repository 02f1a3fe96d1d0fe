package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/devtools/htmlreport"
	"github.com/etgo/etgo/devtools/planviz"
	"github.com/etgo/etgo/emit"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
	"github.com/etgo/etgo/pte"
)

func init() {
	commands["lower"] = command{
		summary: "lower a torch.export .pt2 with an ordered list of partitioners (--plan: show the partition plan)",
		usage: "lower MODEL.pt2 (-o OUT.pte | --plan) [--partitioner NAME]... [--transform-passes recommended|none|NAME,NAME] [--per-op] [--report R.json] [--dot PLAN.dot] [--html PLAN.html] [--allow-missing-kernels] [--json]\n\n" +
			"  -o OUT.pte               write the lowered program\n" +
			"  --report R.json          also write the plan and the per-node decision report as JSON\n" +
			"  --dot PLAN.dot           also draw the partitioned graph for Graphviz (dot -Tsvg PLAN.dot -o plan.svg)\n" +
			"  --html PLAN.html         also write the plan as one self-contained page: the graph drawn, regions, fallback reasons, coverage, boundary tensors\n" +
			"  --allow-missing-kernels  write the program even when a fallback operator has no kernel in this binary\n" +
			"  --partitioner NAME       a partitioner, in order (repeatable; default " + strings.Join(all.DefaultOrder, ", ") + "); known: " +
			strings.Join(all.Registry().Names(), ", ") + "; none: no delegate (portable kernels only)\n" +
			"  --transform-passes SPEC  recommended (each partitioner's backend set), none, or pass names\n" +
			"  --per-op                 one delegate per claimed operator\n" +
			"  --plan                   print the partition plan instead of writing a .pte\n" +
			"  --json                   the plan and the per-node decision report as JSON",
		run: runLower,
	}
}

func runLower(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("lower", stderr)
	var names stringList
	fs.Var(&names, "partitioner", "partitioner, in order (repeatable)")
	spec := fs.String("transform-passes", "recommended", "recommended, none, or pass names")
	perOp := fs.Bool("per-op", false, "one delegate per claimed operator")
	planOnly := fs.Bool("plan", false, "print the partition plan")
	asJSON := fs.Bool("json", false, "JSON output")
	outPath := fs.String("o", "", "write the lowered program to this .pte")
	reportPath := fs.String("report", "", "write the decision report (JSON) here")
	dotPath := fs.String("dot", "", "draw the partitioned graph (Graphviz DOT) here")
	htmlPath := fs.String("html", "", "write the plan as a self-contained HTML page here")
	allowMissing := fs.Bool("allow-missing-kernels", false, "write the program even when kernels are missing")
	path, err := parseFileAndFlags(fs, args)
	if err != nil {
		return err
	}
	if !*planOnly && *outPath == "" {
		return errors.New("give -o OUT.pte to write the lowered program, or --plan to print the partition plan")
	}
	if *planOnly && *outPath != "" {
		return errors.New("--plan prints the plan only; drop it to write -o " + *outPath)
	}
	start := time.Now()
	progress := func(stage string) {
		if *outPath != "" {
			fmt.Fprintf(stderr, "  %-10s %7.1f ms\n", stage, float64(time.Since(start).Microseconds())/1000)
		}
	}
	if len(names) == 0 {
		names = stringList(all.DefaultOrder)
	}
	if len(names) == 1 && names[0] == "none" {
		// to_edge(...).to_executorch(): no delegate, every operator on the portable kernels.
		names = nil
	}
	aot := all.Registry()
	parts, recommended, err := aot.Partitioners(names, backends.Options{PerOp: *perOp})
	if err != nil {
		return err
	}
	transform, err := passes.Select(*spec, recommended)
	if err != nil {
		return err
	}

	prog, err := pt2.Open(path)
	if err != nil {
		return err
	}
	nodes := len(prog.Graph.Nodes)
	progress("read")
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: parts, TransformPasses: transform})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	plan := edge.Plan
	progress("partition")
	kernels, err := fallbackKernels(plan)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	report := planJSON(path, nodes, edge.Reports, plan)
	report.Kernels = kernels
	if *reportPath != "" {
		b, err := json.MarshalIndent(report, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*reportPath, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	if *dotPath != "" {
		var b bytes.Buffer
		if err := planviz.WriteDOT(&b, filepath.Base(path), plan); err != nil {
			return err
		}
		if err := os.WriteFile(*dotPath, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if *htmlPath != "" {
		var b bytes.Buffer
		if err := htmlreport.Write(&b, htmlreport.Report{Title: filepath.Base(path), Plan: plan}); err != nil {
			return err
		}
		if err := os.WriteFile(*htmlPath, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	writeReport := func() error {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(report)
	}
	if *planOnly {
		if *asJSON {
			return writeReport()
		}
		printPlan(stdout, path, nodes, edge.Reports, plan, kernels)
		return nil
	}
	// The plan is printed before emission so a failure there still shows what was attempted.
	if !*asJSON {
		printPlan(stdout, path, nodes, edge.Reports, plan, kernels)
	}
	contents, err := lower.ToExecuTorch(plan, aot)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	progress("emit")
	reg, err := newRegistry(1)
	if err != nil {
		return err
	}
	if err := emit.CheckKernels(contents.Program, reg.HasKernel); err != nil {
		if !*allowMissing {
			return fmt.Errorf("%s: %w\n(the official runtime would refuse this program at load; --allow-missing-kernels writes it anyway)", path, err)
		}
		fmt.Fprintf(stderr, "warning: %v\n", err)
	}
	data, err := pte.Write(contents, pte.DefaultWriteOptions)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.WriteFile(*outPath, data, 0o644); err != nil {
		return err
	}
	progress("write")
	if *asJSON {
		return writeReport()
	}
	var planned int64
	for _, m := range contents.Program.ExecutionPlans {
		for _, s := range m.NonConstBufferSizes {
			planned += s
		}
	}
	fmt.Fprintf(stdout, "wrote %s: %d bytes, %d delegate(s), %d named weight(s), %d bytes planned memory\n",
		*outPath, len(data), len(plan.Delegates), len(contents.NamedData), planned)
	return nil
}

type jsonKernel struct {
	Name      string   `json:"name"`
	Nodes     []string `json:"nodes"`
	Available bool     `json:"available"`
}

// fallbackKernels lists the out-variant kernels the plan leaves to the portable path and
// whether this binary carries each (the check the runtime would otherwise make at load).
func fallbackKernels(plan *partition.Plan) ([]jsonKernel, error) {
	ks, err := emit.FallbackKernels(plan)
	if err != nil {
		return nil, err
	}
	reg, err := newRegistry(1)
	if err != nil {
		return nil, err
	}
	out := []jsonKernel{}
	for _, k := range ks {
		_, ok := reg.Kernel(k.Name)
		out = append(out, jsonKernel{Name: k.Name, Nodes: k.Nodes, Available: ok})
	}
	return out, nil
}

func printPlan(w io.Writer, path string, nodes int, reports []passes.Report, plan *partition.Plan, kernels []jsonKernel) {
	fmt.Fprintf(w, "%s: %d operators exported, %d in Edge after transform passes\n", path, nodes, len(plan.Decisions))
	for _, r := range reports {
		what := "no change"
		if r.Changed {
			what = r.Summary
		}
		fmt.Fprintf(w, "  pass %-36s %s\n", r.Pass, what)
	}
	for i, d := range plan.Delegates {
		var ins, outs []string
		for _, v := range d.Call.Args[0].Values {
			ins = append(ins, v.Name)
		}
		for _, v := range d.Call.Outputs {
			outs = append(outs, v.Name)
		}
		fmt.Fprintf(w, "\ndelegate %d  %s  %d operator(s), %d constant(s) owned\n", i, d.Spec.BackendID, len(d.Region.Nodes), len(d.Region.Constants))
		fmt.Fprintf(w, "  inputs:  %s\n  outputs: %s\n", strings.Join(ins, ", "), strings.Join(outs, ", "))
		for _, n := range d.Region.Nodes {
			fmt.Fprintf(w, "  %-28s %s\n", n.Name, n.Target)
		}
	}
	fallback := 0
	for _, d := range plan.Decisions {
		if d.Delegate < 0 {
			if fallback == 0 {
				fmt.Fprintf(w, "\nfallback (portable kernels):\n")
			}
			fallback++
			fmt.Fprintf(w, "  %-28s %s\n", d.Node, d.Target)
			for _, x := range d.Declines {
				fmt.Fprintf(w, "      %s: %s: %s\n", x.BackendID, x.Reason, x.Detail)
			}
		}
	}
	counts := plan.OperatorCounts()
	targets := make([]string, 0, len(counts))
	for t := range counts {
		targets = append(targets, t)
	}
	sort.Strings(targets)
	fmt.Fprintf(w, "\n%-52s %9s %13s\n", "operator", "delegated", "non-delegated")
	for _, t := range targets {
		fmt.Fprintf(w, "%-52s %9d %13d\n", t, counts[t].Delegated, counts[t].NonDelegated)
	}
	if len(kernels) > 0 {
		fmt.Fprintf(w, "\nportable kernels the fallback operators need (in this binary?):\n")
		for _, k := range kernels {
			mark := "ok     "
			if !k.Available {
				mark = "MISSING"
			}
			fmt.Fprintf(w, "  %s %s\n", mark, k.Name)
		}
	}
	fmt.Fprintln(w)
	printCoverage(w, plan)
}

type jsonDecline struct {
	Partitioner int    `json:"partitioner"`
	BackendID   string `json:"backend_id"`
	Reason      string `json:"reason"`
	Detail      string `json:"detail"`
}

type jsonDecision struct {
	Node     string        `json:"node"`
	Target   string        `json:"target"`
	Delegate *int          `json:"delegate"`
	FLOPs    int64         `json:"flops"`
	Declines []jsonDecline `json:"declines,omitempty"`
}

type jsonDelegate struct {
	BackendID   string     `json:"backend_id"`
	Partitioner int        `json:"partitioner"`
	Nodes       [][]string `json:"nodes"` // [name, target]
	Constants   []string   `json:"constants"`
	Inputs      []string   `json:"inputs"`
	Outputs     []string   `json:"outputs"`
}

type jsonPlan struct {
	Model     string                             `json:"model"`
	Exported  int                                `json:"exported_operators"`
	Passes    []passes.Report                    `json:"passes"`
	Delegates []jsonDelegate                     `json:"delegates"`
	Decisions []jsonDecision                     `json:"decisions"`
	Operators map[string]partition.OperatorCount `json:"operators"`
	Kernels   []jsonKernel                       `json:"portable_kernels"`
	Summary   string                             `json:"summary"`
	Coverage  []jsonCoverage                     `json:"coverage"`
}

// jsonCoverage is partition.Coverage with stable names.
type jsonCoverage struct {
	BackendID      string `json:"backend_id"`
	Operators      int    `json:"operators"`
	Delegated      int    `json:"delegated_operators"`
	FLOPs          int64  `json:"flops"`
	DelegatedFLOPs int64  `json:"delegated_flops"`
	Regions        int    `json:"regions"`
	Inputs         int    `json:"boundary_inputs"`
	Outputs        int    `json:"boundary_outputs"`
	InputBytes     int64  `json:"boundary_input_bytes"`
	OutputBytes    int64  `json:"boundary_output_bytes"`
}

func planJSON(path string, nodes int, reports []passes.Report, plan *partition.Plan) jsonPlan {
	out := jsonPlan{Model: path, Exported: nodes, Passes: reports, Operators: plan.OperatorCounts(), Summary: plan.Summary(),
		Delegates: []jsonDelegate{}, Decisions: []jsonDecision{}, Coverage: []jsonCoverage{}}
	for _, c := range plan.Coverage() {
		out.Coverage = append(out.Coverage, jsonCoverage(c))
	}
	for _, d := range plan.Delegates {
		jd := jsonDelegate{BackendID: d.Spec.BackendID, Partitioner: d.Partitioner, Constants: []string{}, Inputs: []string{}, Outputs: []string{}}
		for _, n := range d.Region.Nodes {
			jd.Nodes = append(jd.Nodes, []string{n.Name, n.Target})
		}
		for _, c := range d.Region.Constants {
			jd.Constants = append(jd.Constants, c.Name)
		}
		for _, v := range d.Call.Args[0].Values {
			jd.Inputs = append(jd.Inputs, v.Name)
		}
		for _, v := range d.Call.Outputs {
			jd.Outputs = append(jd.Outputs, v.Name)
		}
		out.Delegates = append(out.Delegates, jd)
	}
	for _, d := range plan.Decisions {
		jd := jsonDecision{Node: d.Node, Target: d.Target, FLOPs: d.FLOPs}
		if d.Delegate >= 0 {
			k := d.Delegate
			jd.Delegate = &k
		}
		for _, x := range d.Declines {
			jd.Declines = append(jd.Declines, jsonDecline{x.Partitioner, x.BackendID, string(x.Reason), x.Detail})
		}
		out.Decisions = append(out.Decisions, jd)
	}
	return out
}
