package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"github.com/etgo/etgo/devtools/coverage"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/human"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/pte"
)

// The demo model is the zoo's split_delegation (TestDemoAssets keeps these copies identical to
// testdata/zoo/split_delegation): the program torch.export.save wrote, the input the zoo ran,
// and the output eager PyTorch computed for it. It is partially delegated on purpose — a cumsum
// and an erf that XNNPACK declines split it into three regions — because how partial a
// delegation is (regions, boundary tensors, time outside the backend) is what matters most.
var (
	//go:embed demo/model.pt2
	demoModel []byte
	//go:embed demo/input_0.npy
	demoInput []byte
	//go:embed demo/expected_0.npy
	demoExpected []byte
)

const (
	demoDescription = "Linear + ReLU, cumsum, Linear, an erf GELU, Linear"
	// demoTolerance is the zoo's bound for fp32 outputs against eager PyTorch.
	demoTolerance = 1e-4
)

func (a *app) demoCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "demo",
		Short: "lower an embedded model to XNNPACK (partially: 3 regions), run it, and load it where the backend is missing",
		Long: `A walk-through on the model embedded in this binary (Linear + ReLU, a cumsum, Linear, an erf
GELU, Linear, as torch.export.save wrote it): lower it as to_edge_transform_and_lower(...,
partitioner=[XnnpackPartitioner()]).to_executorch() would; show the lowered graph, the
operators XNNPACK declined with its reasons, coverage by operator count and by estimated work,
and the tensors crossing region borders; run it, compare with eager PyTorch's output, and show
the time spent in the backend and in the portable kernels; then load the same program in a
runtime without XnnpackBackend, which refuses it by name.`,
		Example:           "  etgo demo -o demo.pte && etgo inspect demo.pte",
		Args:              fileArgs(),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	outPath := c.Flags().StringP("output", "o", "", "also write the lowered program to `OUT.pte` (try etgo inspect / run / check on it)")
	threads := c.Flags().Int("threads", 1, "`N` goroutines the XNNPACK delegate may use (at least 1)")
	_ = c.MarkFlagFilename("output", "pte")
	return a.command(c, func(*cobra.Command, []string) error {
		if err := atLeast("threads", *threads, 1); err != nil {
			return err
		}
		return runDemo(a.stdout, *outPath, *threads)
	})
}

func runDemo(stdout io.Writer, outPath string, threads int) error {
	fmt.Fprintf(stdout, "etgo demo: %s, exported with torch.export (model.pt2, %d bytes, embedded in this binary)\n",
		demoDescription, len(demoModel))

	// 1. Lower, exactly as `etgo lower` does with its defaults.
	fmt.Fprintf(stdout, "\n== 1. lower: Edge dialect, XNNPACK's recommended transform passes, XnnpackPartitioner, preprocess, emit\n\n")
	start := time.Now()
	prog, err := pt2.Parse(demoModel)
	if err != nil {
		return fmt.Errorf("embedded model: %w", err)
	}
	aot := all.Registry()
	parts, transform, err := aot.Partitioners(all.DefaultOrder, backends.Options{})
	if err != nil {
		return err
	}
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: parts, TransformPasses: transform})
	if err != nil {
		return fmt.Errorf("embedded model: %w", err)
	}
	plan := edge.Plan
	if err := printLoweredGraph(stdout, plan); err != nil {
		return err
	}
	contents, err := lower.ToExecuTorch(plan, aot)
	if err != nil {
		return fmt.Errorf("embedded model: %w", err)
	}
	data, err := pte.Write(contents, pte.DefaultWriteOptions)
	if err != nil {
		return fmt.Errorf("embedded model: %w", err)
	}
	elapsed := time.Since(start)
	fmt.Fprintln(stdout)
	printDeclines(stdout, plan)
	printCoverage(stdout, plan)
	printBoundary(stdout, plan)
	var planned int64
	for _, m := range contents.Program.ExecutionPlans {
		for _, s := range m.NonConstBufferSizes {
			planned += s
		}
	}
	fmt.Fprintf(stdout, "program: %d bytes, %d delegate blob(s), %d named weight(s), %d bytes of planned memory; lowered in %.1f ms\n",
		len(data), len(plan.Delegates), len(contents.NamedData), planned, float64(elapsed.Microseconds())/1000)
	if outPath != "" {
		if err := os.WriteFile(outPath, data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", outPath)
	}

	// 2. Run it in this binary's runtime and compare with eager PyTorch.
	fmt.Fprintf(stdout, "\n== 2. run it with etgo's runtime (portable kernels + XnnpackBackend)\n\n")
	full, err := newRegistry(threads)
	if err != nil {
		return err
	}
	if err := demoRun(stdout, data, full); err != nil {
		return err
	}

	// 3. The same program where the backend is not registered: load fails, naming it.
	fmt.Fprintf(stdout, "\n== 3. load the same .pte in a runtime without XnnpackBackend (portable kernels only)\n\n")
	bare, err := kernelRegistry(threads)
	if err != nil {
		return err
	}
	err = demoLoad(data, bare)
	if err == nil {
		return errors.New("the program loaded without XnnpackBackend; it should have been refused")
	}
	if !errors.Is(err, executor.ErrBackendNotRegistered) {
		return fmt.Errorf("loading without XnnpackBackend failed for another reason: %w", err)
	}
	fmt.Fprintf(stdout, "LoadMethod(\"forward\") fails:\n  %v\n\n", err)
	fmt.Fprintln(stdout, "This is \"works in Python, fails in the app\": a .pte loads only where every backend it")
	fmt.Fprintln(stdout, "names is registered. `etgo check FILE.pte` says whether a binary carries what a file needs.")
	return nil
}

// demoLoad loads the forward method of a program held in memory.
func demoLoad(data []byte, reg *executor.Registry) error {
	_, _, err := demoMethod(data, reg)
	return err
}

func demoMethod(data []byte, reg *executor.Registry) (*executor.Program, *executor.Method, error) {
	f, err := pte.Parse(data)
	if err != nil {
		return nil, nil, err
	}
	p, err := executor.NewProgram(f, executor.Options{Registry: reg})
	if err != nil {
		return nil, nil, err
	}
	m, err := p.LoadMethod("forward")
	if err != nil {
		p.Close()
		return nil, nil, err
	}
	return p, m, nil
}

// demoRun executes the lowered program on the embedded input and checks the output against
// eager PyTorch's.
func demoRun(w io.Writer, data []byte, reg *executor.Registry) error {
	p, m, err := demoMethod(data, reg)
	if err != nil {
		return err
	}
	defer p.Close()
	defer m.Close()
	in, err := npy.Decode(demoInput)
	if err != nil {
		return fmt.Errorf("embedded input: %w", err)
	}
	want, err := npy.Decode(demoExpected)
	if err != nil {
		return fmt.Errorf("embedded expected output: %w", err)
	}
	x, err := npyconv.Tensor(in)
	if err != nil {
		return fmt.Errorf("embedded input: %w", err)
	}
	start := time.Now()
	outs, err := m.Execute(context.Background(), &executor.EValue{Tag: executor.TagTensor, Tensor: x})
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	if len(outs) != 1 || outs[0].Tag != executor.TagTensor {
		return fmt.Errorf("the program returned %d values, want one tensor", len(outs))
	}
	got := outs[0].Tensor
	diff, err := npyconv.MaxAbsDiff(got, want)
	if err != nil {
		return fmt.Errorf("output 0 against eager PyTorch: %w", err)
	}
	fmt.Fprintf(w, "input 0:  %v\noutput 0: %v in %.2f ms (first run, cold)\n", x, got, float64(elapsed.Microseconds())/1000)
	if diff > demoTolerance {
		return fmt.Errorf("output 0 differs from eager PyTorch by up to %g (tolerance %g)", diff, demoTolerance)
	}
	fmt.Fprintf(w, "matches eager PyTorch: max abs difference %.2g (tolerance %g)\n", diff, demoTolerance)
	return demoTimes(w, m, x)
}

// demoRuns is how many profiled runs the time split is measured over.
const demoRuns = 200

// demoTimes runs the method with per-instruction profiling and prints where the time goes: in
// each backend's delegate calls, and in the portable kernels of the operators it declined.
func demoTimes(w io.Writer, m *executor.Method, x *executor.Tensor) error {
	m.EnableProfiling(true)
	defer m.EnableProfiling(false)
	for range demoRuns {
		if _, err := m.Execute(context.Background(), &executor.EValue{Tag: executor.TagTensor, Tensor: x}); err != nil {
			return err
		}
	}
	instrs, runs, total, _ := m.Profile()
	byWhere := map[string]time.Duration{}
	calls := map[string]int{}
	var order []string
	for _, in := range instrs {
		where := "portable kernels"
		if in.Kind == "delegate" {
			where = strings.SplitN(in.Name, " ", 2)[0] // "XnnpackBackend (delegate 0)"
		}
		if _, ok := byWhere[where]; !ok {
			order = append(order, where)
		}
		byWhere[where] += in.Total
		calls[where] += in.Calls
	}
	fmt.Fprintf(w, "\nwhere the time goes (%d runs, %.1f µs per run):\n", runs, float64(total.Nanoseconds())/1e3/float64(runs))
	sort.Strings(order)
	for _, where := range order {
		d := byWhere[where]
		fmt.Fprintf(w, "  %-18s %8.1f µs per run  %5.1f%%  (%d calls per run)\n", where, float64(d.Nanoseconds())/1e3/float64(runs),
			100*float64(d)/float64(total), calls[where]/runs)
	}
	fmt.Fprintln(w, "  (the rest: copying inputs and outputs, and moving between instructions)")
	if d, ok := byWhere["portable kernels"]; ok {
		fmt.Fprintf(w, "the operators left outside the delegates take %.0f%% of the time: a partial delegation pays for\n", 100*float64(d)/float64(total))
		fmt.Fprintln(w, "what it leaves behind and for every tensor crossing a border, not only for its share of the work.")
	}
	return nil
}

// printDeclines lists the operators no partitioner took, with each one's reason.
func printDeclines(w io.Writer, plan *partition.Plan) {
	for _, d := range plan.Decisions {
		if d.Delegate >= 0 {
			continue
		}
		fmt.Fprintf(w, "left to the portable kernels: %s (%s)\n", d.Node, d.Target)
		for _, x := range d.Declines {
			fmt.Fprintf(w, "  %s declined it: %s: %s\n", x.BackendID, x.Reason, x.Detail)
		}
	}
}

// printBoundary lists the tensors each delegate call takes and returns: what crosses between
// the backend and the rest of the program on every run.
func printBoundary(w io.Writer, plan *partition.Plan) {
	fmt.Fprintln(w, "tensors crossing region borders, per run:")
	for k, d := range plan.Delegates {
		var ins, outs []string
		for _, a := range d.Call.Args {
			for _, v := range a.Values {
				if v != nil && v.Kind == ir.TensorValue && v.Meta != nil {
					ins = append(ins, v.Name+" "+v.Meta.String())
				}
			}
		}
		for _, v := range d.Call.Outputs {
			if v != nil && v.Meta != nil {
				outs = append(outs, v.Name+" "+v.Meta.String())
			}
		}
		fmt.Fprintf(w, "  delegate %d (%s): in %s; out %s\n", k, d.Spec.BackendID, strings.Join(ins, ", "), strings.Join(outs, ", "))
	}
}

// printLoweredGraph prints the remaining graph as an FX graph reads after lowering (node kind,
// name, target), with each delegate's region under its lowered_module, as ExecuTorch's
// format_delegated_graph does. etgo keeps a call's outputs on the call node; FX reads them
// through one getitem each, so those are printed.
func printLoweredGraph(w io.Writer, plan *partition.Plan) error {
	fmt.Fprintln(w, "lowered graph (kind, name, target):")
	line := func(indent, kind, name, target string) {
		fmt.Fprintf(w, "%s%-14s %-28s %s\n", indent, kind, name, target)
	}
	placeholders := func(indent string, g *ir.Graph) {
		for _, in := range g.Inputs {
			meta := ""
			if in.Value.Meta != nil {
				meta = in.Value.Meta.String()
			}
			line(indent, "placeholder", in.Value.Name, meta)
		}
	}
	outputs := func(indent string, g *ir.Graph, rename map[*ir.Value]string) {
		var names []string
		for _, o := range g.Outputs {
			if o.Value == nil {
				names = append(names, "None")
			} else if n, ok := rename[o.Value]; ok {
				names = append(names, n)
			} else {
				names = append(names, o.Value.Name)
			}
		}
		line(indent, "output", "output", "("+strings.Join(names, ", ")+")")
	}
	delegateOf := map[*ir.Node]int{}
	for i, d := range plan.Delegates {
		delegateOf[d.Call] = i
	}
	placeholders("  ", plan.Graph)
	getitems := 0
	rename := map[*ir.Value]string{}
	for _, n := range plan.Graph.Nodes {
		k, isCall := delegateOf[n]
		if !isCall {
			line("  ", "call_function", n.Name, n.Target)
			continue
		}
		d := plan.Delegates[k]
		module := fmt.Sprintf("lowered_module_%d", k)
		line("  ", "get_attr", module, "")
		fmt.Fprintf(w, "      backend_id: %s\n      lowered graph():\n", d.Spec.BackendID)
		sub, err := d.Program(plan.Graph)
		if err != nil {
			return fmt.Errorf("delegate %d: %w", k, err)
		}
		placeholders("        ", sub)
		for _, sn := range sub.Nodes {
			line("        ", "call_function", sn.Name, sn.Target)
		}
		outputs("        ", sub, nil)
		line("  ", "call_function", n.Name, "torch.ops.higher_order."+partition.CallDelegate)
		for _, v := range n.Outputs {
			name := "getitem"
			if getitems > 0 {
				name = fmt.Sprintf("getitem_%d", getitems)
			}
			getitems++
			rename[v] = name
			line("  ", "call_function", name, "operator.getitem")
		}
	}
	outputs("  ", plan.Graph, rename)
	return nil
}

// printCoverage prints how much of the graph each backend took, by operators and by estimated
// work, in how many regions, and the tensors crossing its boundaries in one run.
func printCoverage(w io.Writer, plan *partition.Plan) {
	fmt.Fprintf(w, "coverage: %s\n", plan.Summary())
	for _, c := range plan.Coverage() {
		fmt.Fprintf(w, "  %s: %s of the work (%s of %s FLOPs), %s of operators, %s; per run %s in (%s), %d out (%s)\n",
			c.BackendID, human.Percent(c.DelegatedFLOPs, c.FLOPs), human.FLOPs(c.DelegatedFLOPs), human.FLOPs(c.FLOPs), human.Percent(int64(c.Delegated), int64(c.Operators)),
			count(c.Regions, "region"), count(c.Inputs, "tensor"), human.Bytes(c.InputBytes), c.Outputs, human.Bytes(c.OutputBytes))
	}
	tab := coverage.Of(plan)
	fmt.Fprintf(w, "  portable kernels: %s, %s of the work, %s of operators\n", count(tab.Portable.Operators, "operator"),
		tab.WorkShare(tab.Portable), tab.CountShare(tab.Portable))
}

// count is "1 region", "2 regions".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
