package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/devtools/coverage"
	"github.com/etgo/etgo/devtools/htmlreport"
	"github.com/etgo/etgo/devtools/planviz"
	"github.com/etgo/etgo/emit"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
	"github.com/etgo/etgo/pte"
)

// lowerSchema is the version of etgo lower --json's document, the plan report (which --report
// also writes; docs/cli-json.md).
const lowerSchema = 1

// partitionerNames are the partitioners --partitioner takes, besides none. Once per process:
// the command tree, help text included, is built for every command line.
var partitionerNames = sync.OnceValue(func() []string { return all.Registry().Names() })

// lowerOutput is what lower -o --json adds to the plan: the program written.
type lowerOutput struct {
	Path           string       `json:"path"`
	Bytes          int          `json:"bytes"`
	Delegates      int          `json:"delegates"`
	NamedData      int          `json:"named_data"`
	PlannedBytes   int64        `json:"planned_bytes"`
	MissingKernels string       `json:"missing_kernels,omitempty"` // with --allow-missing-kernels: what the runtime would refuse
	Stages         []lowerStage `json:"stages"`
}

// lowerStage is one stage of lowering and the time since the start when it ended.
type lowerStage struct {
	Stage     string  `json:"stage"`
	ElapsedMS float64 `json:"elapsed_ms"`
}

func (a *app) lowerCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "lower MODEL.pt2 (-o OUT.pte | --plan)",
		Short: "lower a torch.export .pt2 with an ordered list of partitioners (--plan: show the partition plan)",
		Long: `Lower a program exported by torch.export (.pt2) as to_edge_transform_and_lower(...).to_executorch()
does: the Edge dialect, the transform passes, the ordered partitioners, each backend's
preprocess, emission and memory planning. With -o, write the .pte (which the official runtime
loads) and print the plan and each stage's time; a fallback operator this binary has no
kernel for is refused by name unless --allow-missing-kernels. With --plan, print only the
partition plan: delegates and their operators, each declined operator with every
partitioner's reason, per-operator counts, the portable kernels the fallback needs, and each
backend's share of the estimated work and the tensors crossing its boundaries. On a terminal
the stage in progress is shown on stderr (never with --json).`,
		Example: `  etgo lower testdata/zoo/split_delegation/model.pt2 --plan
  etgo lower testdata/zoo/split_delegation/model.pt2 -o split.pte --html plan.html
  etgo lower model.pt2 --plan --partitioner none --json`,
		Args:              fileArgs("MODEL.pt2"),
		ValidArgsFunction: completeFiles("pt2"),
	}
	fs := c.Flags()
	outPath := fs.StringP("output", "o", "", "write the lowered program to `OUT.pte`")
	planOnly := fs.Bool("plan", false, "print the partition plan instead of writing a .pte")
	names := fs.StringArray("partitioner", nil, "a partitioner `NAME`, in order (repeatable; default "+strings.Join(all.DefaultOrder, ", ")+
		"); known: "+strings.Join(partitionerNames(), ", ")+"; none alone: no delegate (portable kernels only)")
	spec := fs.String("transform-passes", "recommended", "`SPEC`: recommended (each partitioner's backend set), none, or pass names separated by commas")
	perOp := fs.Bool("per-op", false, "one delegate per claimed operator")
	enableBF16 := fs.Bool("enable-bf16", false, "let the XNNPACK partitioner take bfloat16 nodes, as XnnpackPartitioner(enable_bf16=True); by default they stay on the portable kernels")
	reportPath := fs.String("report", "", "also write the plan and the per-node decision report to `R.json` (the --plan --json document)")
	dotPath := fs.String("dot", "", "also draw the partitioned graph to `PLAN.dot` for Graphviz (dot -Tsvg PLAN.dot -o plan.svg)")
	htmlPath := fs.String("html", "", "also write the plan as one self-contained page `PLAN.html`: the graph drawn, regions, fallback reasons, coverage, boundary tensors")
	allowMissing := fs.Bool("allow-missing-kernels", false, "write the program even when a fallback operator has no kernel in this binary")
	asJSON := fs.Bool("json", false, "print the plan and the per-node decision report as JSON (schema: docs/cli-json.md)")
	_ = c.MarkFlagFilename("output", "pte")
	_ = c.MarkFlagFilename("report", "json")
	_ = c.MarkFlagFilename("dot", "dot")
	_ = c.MarkFlagFilename("html", "html")
	_ = c.RegisterFlagCompletionFunc("partitioner", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return append(slices.Clone(partitionerNames()), "none"), cobra.ShellCompDirectiveNoFileComp
	})
	_ = c.RegisterFlagCompletionFunc("transform-passes", cobra.FixedCompletions([]string{"recommended", "none"}, cobra.ShellCompDirectiveNoFileComp))
	return a.command(c, func(_ *cobra.Command, args []string) error {
		path := args[0]
		switch {
		case !*planOnly && *outPath == "":
			return usageErrorf("give -o OUT.pte to write the lowered program, or --plan to print the partition plan")
		case *planOnly && *outPath != "":
			return usageErrorf("--plan prints the plan only; drop it to write -o %s", *outPath)
		}
		parts := *names
		if len(parts) == 0 {
			parts = all.DefaultOrder
		}
		for _, n := range parts {
			if n == "none" && len(parts) > 1 {
				return usageErrorf("--partitioner none means no delegate: give it alone, not with %s", strings.Join(slices.DeleteFunc(slices.Clone(parts), func(s string) bool { return s == "none" }), ", "))
			}
			if n != "none" && !slices.Contains(partitionerNames(), n) {
				return usageErrorf("unknown partitioner %q (known: %s; none alone for no delegate)", n, strings.Join(partitionerNames(), ", "))
			}
		}
		if err := checkOutputs([]string{path}, output{"-o " + *outPath, *outPath}, output{"--report " + *reportPath, *reportPath},
			output{"--dot " + *dotPath, *dotPath}, output{"--html " + *htmlPath, *htmlPath}); err != nil {
			return err
		}
		if len(parts) == 1 && parts[0] == "none" {
			// to_edge(...).to_executorch(): no delegate, every operator on the portable kernels.
			parts = nil
		}
		aot := all.Registry()
		partitioners, recommended, err := aot.Partitioners(parts, backends.Options{PerOp: *perOp, EnableBF16: *enableBF16})
		if err != nil {
			return err
		}
		transform, err := passes.Select(*spec, recommended)
		if err != nil {
			// The only way Select fails is a name it does not know: the flag is wrong.
			return usageError{fmt.Errorf("--transform-passes: %w", err)}
		}

		// The stage lines are lower -o's report of where the time went (on stderr, so stdout
		// is the plan alone); --json carries them in its "output" object instead.
		start := time.Now()
		var stages []lowerStage
		bar := newStages(a.stderr, *asJSON)
		defer bar.finish()
		stage := func(done, next string) {
			ms := float64(time.Since(start).Microseconds()) / 1000
			stages = append(stages, lowerStage{done, ms})
			if *outPath != "" && !*asJSON {
				bar.printf("  %-10s %7.1f ms\n", done, ms)
			}
			if next != "" {
				bar.describe(fmt.Sprintf("lower %s: %s", filepath.Base(path), next))
			}
		}
		bar.describe(fmt.Sprintf("lower %s: read", filepath.Base(path)))

		prog, err := pt2.Open(path)
		if err != nil {
			return err
		}
		nodes := len(prog.Graph.Nodes)
		stage("read", "Edge, transform passes, partition")
		edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: partitioners, TransformPasses: transform})
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		plan := edge.Plan
		next := "preprocess, emit"
		if *planOnly {
			next = ""
		}
		stage("partition", next)
		kernels, err := fallbackKernels(plan)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		report := planJSON(path, nodes, edge.Reports, plan)
		report.Kernels = kernels
		if *reportPath != "" {
			// Written as --plan --json prints it, byte for byte.
			var b bytes.Buffer
			if err := writeJSON(&b, report); err != nil {
				return err
			}
			if err := os.WriteFile(*reportPath, b.Bytes(), 0o644); err != nil {
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
		if *planOnly {
			bar.finish()
			if *asJSON {
				return writeJSON(a.stdout, report)
			}
			printPlan(a.stdout, path, nodes, edge.Reports, plan, kernels)
			return nil
		}
		// The plan is printed before emission so a failure there still shows what was attempted.
		if !*asJSON {
			printPlan(a.stdout, path, nodes, edge.Reports, plan, kernels)
		}
		contents, err := lower.ToExecuTorch(plan, aot)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		stage("emit", "write")
		reg, err := newRegistry(1)
		if err != nil {
			return err
		}
		out := &lowerOutput{Path: *outPath, Delegates: len(plan.Delegates), NamedData: len(contents.NamedData)}
		if err := emit.CheckKernels(contents.Program, reg.HasKernel); err != nil {
			if !*allowMissing {
				return fmt.Errorf("%s: %w\n(the official runtime would refuse this program at load; --allow-missing-kernels writes it anyway)", path, err)
			}
			out.MissingKernels = err.Error()
			if !*asJSON {
				bar.printf("warning: %v\n", err)
			}
		}
		data, err := pte.Write(contents, pte.DefaultWriteOptions)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := os.WriteFile(*outPath, data, 0o644); err != nil {
			return err
		}
		stage("write", "")
		bar.finish()
		out.Bytes = len(data)
		for _, m := range contents.Program.ExecutionPlans {
			for _, s := range m.NonConstBufferSizes {
				out.PlannedBytes += s
			}
		}
		if *asJSON {
			out.Stages = stages
			report.Output = out
			return writeJSON(a.stdout, report)
		}
		fmt.Fprintf(a.stdout, "wrote %s: %d bytes, %d delegate(s), %d named weight(s), %d bytes planned memory\n",
			*outPath, out.Bytes, out.Delegates, out.NamedData, out.PlannedBytes)
		return nil
	})
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
	SchemaVersion int                                `json:"schema_version"`
	Model         string                             `json:"model"`
	Exported      int                                `json:"exported_operators"`
	Passes        []passes.Report                    `json:"passes"`
	Delegates     []jsonDelegate                     `json:"delegates"`
	Decisions     []jsonDecision                     `json:"decisions"`
	Operators     map[string]partition.OperatorCount `json:"operators"`
	Kernels       []jsonKernel                       `json:"portable_kernels"`
	Summary       string                             `json:"summary"`
	Coverage      []jsonCoverage                     `json:"coverage"`
	// Portable is what no partitioner took: coverage's last row, so that the backends' rows and
	// this one add up to the graph.
	Portable jsonPortable `json:"portable"`
	// Output is the program lower -o wrote; absent from --plan and from the --report file.
	Output *lowerOutput `json:"output,omitempty"`
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

// jsonPortable is the operators left to the portable kernels and their estimated work, beside
// the graph's totals (coverage's operators and flops).
type jsonPortable struct {
	Operators         int   `json:"operators"`
	PortableOperators int   `json:"portable_operators"`
	FLOPs             int64 `json:"flops"`
	PortableFLOPs     int64 `json:"portable_flops"`
}

func planJSON(path string, nodes int, reports []passes.Report, plan *partition.Plan) jsonPlan {
	out := jsonPlan{SchemaVersion: lowerSchema, Model: path, Exported: nodes, Passes: reports, Operators: plan.OperatorCounts(), Summary: plan.Summary(),
		Delegates: []jsonDelegate{}, Decisions: []jsonDecision{}, Coverage: []jsonCoverage{}}
	for _, c := range plan.Coverage() {
		out.Coverage = append(out.Coverage, jsonCoverage(c))
	}
	tab := coverage.Of(plan)
	out.Portable = jsonPortable{Operators: tab.Operators, PortableOperators: tab.Portable.Operators, FLOPs: tab.FLOPs, PortableFLOPs: tab.Portable.FLOPs}
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
