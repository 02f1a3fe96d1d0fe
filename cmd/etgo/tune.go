package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/devtools/coverage"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/passes"
	"github.com/etgo/etgo/pte"
)

// tuneSchema is the version of etgo tune --json's document (docs/cli-json.md).
const tuneSchema = 1

// Statuses of a tune candidate.
const (
	tuneMeasured       = "measured"
	tuneNotMeasurable  = "not measurable" // lowering, loading or running is not possible here
	tuneMismatch       = "mismatch"       // its outputs differ from the reference's
	tuneFailedToRun    = "failed"         // it loaded but a run failed
	tunePortable       = "none"           // the partitioner list of the portable-only program
	tuneDefaultThreads = "1,2"
)

// tuneCandidate is one way to lower and run the model.
type tuneCandidate struct {
	Partitioners []string // in order; empty: no delegate
	Passes       string   // "recommended" or "none"
	Threads      int
}

func (c tuneCandidate) name() string {
	parts := tunePortable
	if len(c.Partitioners) > 0 {
		parts = strings.Join(c.Partitioners, ",")
	}
	return fmt.Sprintf("%s passes=%s threads=%d", parts, c.Passes, c.Threads)
}

// tuneRow is one candidate's line of the table.
type tuneRow struct {
	Candidate       string   `json:"candidate"`
	Partitioners    []string `json:"partitioners"`
	TransformPasses string   `json:"transform_passes"`
	Threads         int      `json:"threads"`
	Status          string   `json:"status"`
	// Reason says why a candidate is not measurable, failed or mismatched.
	Reason string `json:"reason,omitempty"`
	// Coverage is the plan's shares (when it could be partitioned).
	Coverage *coverage.Table `json:"coverage,omitempty"`
	// MaxAbsDiff is the largest difference of its outputs to the reference candidate's.
	MaxAbsDiff *float64 `json:"max_abs_diff,omitempty"`
	// Runs are the timed runs; the times are their median, fastest and slowest, and the spread
	// is (p90 - p10) / median: how far apart the same candidate's runs fell.
	Runs        int     `json:"runs"`
	MedianMS    float64 `json:"median_ms"`
	MinMS       float64 `json:"min_ms"`
	MaxMS       float64 `json:"max_ms"`
	Spread      float64 `json:"spread"`
	CPUMedianMS float64 `json:"cpu_median_ms"`
	CPUSpread   float64 `json:"cpu_spread"`

	program []byte // the lowered .pte
	times   []float64
	cpu     []float64
}

// tuneResult is etgo tune's report.
type tuneResult struct {
	SchemaVersion int     `json:"schema_version"`
	Model         string  `json:"model"`
	Reference     string  `json:"reference"` // the candidate the others' outputs are checked against
	Tolerance     float64 `json:"tolerance"`
	// By is what the choice minimises: "wall" (the median run's wall time) or "cpu" (its
	// process CPU time, steadier on a loaded machine but blind to what a second thread gains).
	By         string    `json:"by"`
	Rounds     int       `json:"rounds"`
	Iterations int       `json:"iterations"`
	Candidates []tuneRow `json:"candidates"`
	Chosen     string    `json:"chosen"` // empty when none could be measured
	Output     string    `json:"output"`
	Why        string    `json:"why"` // the why-report's path
}

// tuneSample is the wall and CPU time of one run.
type tuneSample struct{ wall, cpu time.Duration }

// tuneOptions configure tune.
type tuneOptions struct {
	model      string
	names      []string // the partitioners to combine (all.Registry's names)
	threads    []int
	rounds     int
	iterations int
	warmup     int
	tolerance  float64
	by         string // "wall" or "cpu"
	inputs     []string
	// timeRun times one run of a candidate: run itself, or (tests) a fake clock.
	timeRun func(c tuneCandidate, run func() error) (tuneSample, error)
}

// enumerate lists the candidates: the portable-only program first (the reference every other
// candidate's outputs are checked against), then each partitioner alone and every order of all
// of them, each with and without the transform passes (once when the list recommends none), each
// at every thread count.
func enumerate(names []string, threads []int) ([]tuneCandidate, error) {
	lists := [][]string{nil}
	for _, n := range names {
		lists = append(lists, []string{n})
	}
	if len(names) > 1 {
		for _, p := range permutations(names) {
			lists = append(lists, p)
		}
	}
	reg := all.Registry()
	var out []tuneCandidate
	for _, l := range lists {
		_, recommended, err := reg.Partitioners(l, backends.Options{})
		if err != nil {
			return nil, err
		}
		specs := []string{"recommended"}
		if len(recommended) > 0 {
			specs = append(specs, "none")
		}
		for _, s := range specs {
			for _, th := range threads {
				out = append(out, tuneCandidate{Partitioners: l, Passes: s, Threads: th})
			}
		}
	}
	return out, nil
}

func permutations(s []string) [][]string {
	if len(s) <= 1 {
		return [][]string{slices.Clone(s)}
	}
	var out [][]string
	for i := range s {
		rest := append(slices.Clone(s[:i]), s[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{s[i]}, p...))
		}
	}
	return out
}

// lowerCandidate lowers the model as c says into a .pte, and returns the plan's coverage (nil
// when partitioning failed). Each lowering reads the .pt2 afresh: lowering changes its graph.
func lowerCandidate(model string, c tuneCandidate) ([]byte, *coverage.Table, error) {
	prog, err := pt2.Open(model)
	if err != nil {
		return nil, nil, err
	}
	aot := all.Registry()
	parts, recommended, err := aot.Partitioners(c.Partitioners, backends.Options{})
	if err != nil {
		return nil, nil, err
	}
	transform, err := passes.Select(c.Passes, recommended)
	if err != nil {
		return nil, nil, err
	}
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: parts, TransformPasses: transform})
	if err != nil {
		return nil, nil, err
	}
	tab := coverage.Of(edge.Plan)
	contents, err := lower.ToExecuTorch(edge.Plan, aot)
	if err != nil {
		return nil, &tab, err
	}
	data, err := pte.Write(contents, pte.DefaultWriteOptions)
	return data, &tab, err
}

// loaded is a candidate's program ready to run.
type loaded struct {
	prog   *executor.Program
	method *executor.Method
}

func (l *loaded) close() {
	if l.method != nil {
		l.method.Close()
	}
	if l.prog != nil {
		l.prog.Close()
	}
}

func load(data []byte, threads int) (*loaded, error) {
	f, err := pte.Parse(data)
	if err != nil {
		return nil, err
	}
	reg, err := newRegistry(threads)
	if err != nil {
		return nil, err
	}
	p, err := executor.NewProgram(f, executor.Options{Registry: reg})
	if err != nil {
		return nil, err
	}
	m, err := p.LoadMethod("forward")
	if err != nil {
		return nil, err
	}
	return &loaded{prog: p, method: m}, nil
}

// tune lowers, checks and times every candidate, alternating between them round by round, and
// returns the table with the fastest measured candidate chosen.
func tune(ctx context.Context, o tuneOptions, progress io.Writer) (*tuneResult, error) {
	cands, err := enumerate(o.names, o.threads)
	if err != nil {
		return nil, err
	}
	res := &tuneResult{SchemaVersion: tuneSchema, Model: o.model, Tolerance: o.tolerance, By: o.by, Rounds: o.rounds, Iterations: o.iterations}
	if res.By == "" {
		res.By = "wall"
	}
	lowered := map[string]struct {
		data []byte
		tab  *coverage.Table
		err  error
	}{}
	runs := make([]*loaded, len(cands))
	defer func() {
		for _, l := range runs {
			if l != nil {
				l.close()
			}
		}
	}()
	var inputs []*executor.EValue
	var reference []*executor.Tensor
	for i, c := range cands {
		row := tuneRow{Candidate: c.name(), Partitioners: append([]string{}, c.Partitioners...), TransformPasses: c.Passes, Threads: c.Threads, Status: tuneMeasured}
		key := strings.Join(c.Partitioners, ",") + "|" + c.Passes
		l, ok := lowered[key]
		if !ok {
			fmt.Fprintf(progress, "tune: lowering %s\n", strings.TrimSuffix(row.Candidate, fmt.Sprintf(" threads=%d", c.Threads)))
			l.data, l.tab, l.err = lowerCandidate(o.model, c)
			lowered[key] = l
		}
		row.Coverage, row.program = l.tab, l.data
		res.Candidates = append(res.Candidates, row)
		r := &res.Candidates[i]
		if l.err != nil {
			r.Status, r.Reason = tuneNotMeasurable, "etgo cannot lower it: "+l.err.Error()
			continue
		}
		ld, err := load(l.data, c.Threads)
		if err != nil {
			// A backend this binary lacks, or one whose device is not here (no Vulkan GPU): the
			// candidate cannot be timed on this machine, so it is not chosen.
			r.Status, r.Reason = tuneNotMeasurable, "cannot be loaded here: "+err.Error()
			continue
		}
		runs[i] = ld
		if inputs == nil {
			if inputs, err = benchInputs(ld.method, o.inputs); err != nil {
				return nil, err
			}
		}
		outs, err := ld.method.Execute(ctx, inputs...)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			r.Status, r.Reason = tuneFailedToRun, err.Error()
			continue
		}
		got := tensors(outs)
		if reference == nil {
			res.Reference = r.Candidate
			for _, t := range got {
				reference = append(reference, t.Clone())
			}
			zero := 0.0
			r.MaxAbsDiff = &zero
			continue
		}
		d, err := maxDiff(got, reference)
		if err != nil {
			r.Status, r.Reason = tuneMismatch, err.Error()
			continue
		}
		r.MaxAbsDiff = &d
		if limit := o.tolerance * max(1, maxAbs(reference)); d > limit || math.IsNaN(d) {
			r.Status, r.Reason = tuneMismatch, fmt.Sprintf("outputs differ from %s's by up to %g (tolerance %g)", res.Reference, d, limit)
		}
	}
	// Alternating: every round runs each measured candidate in turn, so a change of the
	// machine's load falls on all of them alike.
	for _, i := range measured(res) {
		for range o.warmup {
			if _, err := runs[i].method.Execute(ctx, inputs...); err != nil {
				return nil, err
			}
		}
	}
	for round := range o.rounds {
		fmt.Fprintf(progress, "tune: round %d of %d\n", round+1, o.rounds)
		for _, i := range measured(res) {
			r, m := &res.Candidates[i], runs[i].method
			for range o.iterations {
				s, err := o.timeRun(cands[i], func() error { _, err := m.Execute(ctx, inputs...); return err })
				if err != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					r.Status, r.Reason = tuneFailedToRun, err.Error()
					break
				}
				r.times = append(r.times, float64(s.wall.Nanoseconds())/1e6)
				r.cpu = append(r.cpu, float64(s.cpu.Nanoseconds())/1e6)
			}
		}
	}
	best := -1
	for _, i := range measured(res) {
		r := &res.Candidates[i]
		r.Runs = len(r.times)
		sorted := slices.Clone(r.times)
		slices.Sort(sorted)
		r.MedianMS, r.MinMS, r.MaxMS = sorted[len(sorted)/2], sorted[0], sorted[len(sorted)-1]
		if r.MedianMS > 0 {
			r.Spread = (sorted[len(sorted)*9/10] - sorted[len(sorted)/10]) / r.MedianMS
		}
		cpu := slices.Clone(r.cpu)
		slices.Sort(cpu)
		r.CPUMedianMS = cpu[len(cpu)/2]
		if r.CPUMedianMS > 0 {
			r.CPUSpread = (cpu[len(cpu)*9/10] - cpu[len(cpu)/10]) / r.CPUMedianMS
		}
		if best < 0 || res.metric(*r) < res.metric(res.Candidates[best]) {
			best = i
		}
	}
	if best >= 0 {
		res.Chosen = res.Candidates[best].Candidate
	}
	return res, nil
}

// metric is the time the choice minimises and its spread.
func (r *tuneResult) metric(c tuneRow) float64 {
	if r.By == "cpu" {
		return c.CPUMedianMS
	}
	return c.MedianMS
}

func (r *tuneResult) spread(c tuneRow) float64 {
	if r.By == "cpu" {
		return c.CPUSpread
	}
	return c.Spread
}

// measured lists the candidates still to be timed (or timed).
func measured(res *tuneResult) []int {
	var out []int
	for i, r := range res.Candidates {
		if r.Status == tuneMeasured {
			out = append(out, i)
		}
	}
	return out
}

func tensors(vs []*executor.EValue) []*executor.Tensor {
	var out []*executor.Tensor
	for _, v := range vs {
		if v != nil && v.Tag == executor.TagTensor {
			out = append(out, v.Tensor)
		}
	}
	return out
}

// maxDiff is the largest elementwise difference between two output lists of the same dtypes
// and shapes.
func maxDiff(got, want []*executor.Tensor) (float64, error) {
	if len(got) != len(want) {
		return 0, fmt.Errorf("%d outputs, the reference has %d", len(got), len(want))
	}
	worst := 0.0
	for k := range got {
		arr, err := npyconv.Array(want[k])
		if err != nil {
			return 0, err
		}
		d, err := npyconv.MaxAbsDiff(got[k], arr)
		if err != nil {
			return 0, fmt.Errorf("output %d: %w", k, err)
		}
		worst = max(worst, d)
	}
	return worst, nil
}

// maxAbs is the largest magnitude among the reference outputs (0 for outputs it cannot read):
// the tolerance scales with it.
func maxAbs(ts []*executor.Tensor) float64 {
	m := 0.0
	for _, t := range ts {
		arr, err := npyconv.Array(t)
		if err != nil {
			continue
		}
		if d, err := npyconv.MaxAbsDiff(zeroLike(t), arr); err == nil && !math.IsInf(d, 0) {
			m = max(m, d)
		}
	}
	return m
}

// zeroLike is a tensor of t's dtype and shape filled with zeros.
func zeroLike(t *executor.Tensor) *executor.Tensor {
	z, err := executor.NewTensor(t.ScalarType(), t.Sizes()...)
	if err != nil {
		return t
	}
	return z
}

// realTime times one run by the wall clock and the process's CPU time.
func realTime(_ tuneCandidate, run func() error) (tuneSample, error) {
	c0 := processCPU()
	t0 := time.Now()
	err := run()
	return tuneSample{wall: time.Since(t0), cpu: processCPU() - c0}, err
}

// writeTable prints the candidates, one line each.
func (r *tuneResult) writeTable(w io.Writer) {
	fmt.Fprintf(w, "%-44s %-15s %10s %10s %8s %10s  %s\n", "candidate", "status", "median ms", "min ms", "spread", "cpu ms", "delegated work / max |diff|")
	said := ""
	for _, c := range r.Candidates {
		mark := " "
		if c.Candidate == r.Chosen {
			mark = "*"
		}
		shares := "-"
		if c.Coverage != nil {
			var parts []string
			for _, s := range c.Coverage.Rows() {
				parts = append(parts, fmt.Sprintf("%s %s", strings.TrimSuffix(s.BackendID, "Backend"), c.Coverage.WorkShare(s)))
			}
			shares = strings.Join(parts, ", ")
		}
		if c.MaxAbsDiff != nil {
			shares += fmt.Sprintf(" / %.3g", *c.MaxAbsDiff)
		}
		if c.Status != tuneMeasured {
			fmt.Fprintf(w, "%s%-43s %-15s %10s %10s %8s %10s  %s\n", mark, c.Candidate, c.Status, "-", "-", "-", "-", shares)
			if reason := firstLine(c.Reason); reason != said { // the same reason once, under its first candidate
				fmt.Fprintf(w, "      %s\n", reason)
				said = reason
			}
			continue
		}
		fmt.Fprintf(w, "%s%-43s %-15s %10.3f %10.3f %7.1f%% %10.3f  %s\n", mark, c.Candidate, c.Status, c.MedianMS, c.MinMS, 100*c.Spread, c.CPUMedianMS, shares)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// writeWhy explains the choice: the winner, its margin over the runner-up against both
// candidates' spread, what was not measurable or disagreed, and how to run the program.
func (r *tuneResult) writeWhy(w io.Writer) {
	fmt.Fprintf(w, "etgo tune %s\n\n", r.Model)
	var ok []tuneRow
	for _, c := range r.Candidates {
		if c.Status == tuneMeasured {
			ok = append(ok, c)
		}
	}
	slices.SortStableFunc(ok, func(a, b tuneRow) int {
		switch {
		case r.metric(a) < r.metric(b):
			return -1
		case r.metric(a) > r.metric(b):
			return 1
		}
		return 0
	})
	if len(ok) == 0 {
		fmt.Fprintln(w, "No candidate could be measured on this machine; nothing was chosen.")
	} else {
		c := ok[0]
		fmt.Fprintf(w, "Chosen: %s, the lowest median %s time over %d alternating rounds of %d runs: %.3f ms (spread %.1f%%; wall %.3f ms, CPU %.3f ms per run).\n",
			c.Candidate, r.By, r.Rounds, r.Iterations, r.metric(c), 100*r.spread(c), c.MedianMS, c.CPUMedianMS)
		if c.Coverage != nil {
			fmt.Fprintln(w, "Its plan:")
			c.Coverage.WriteText(w)
		}
		if len(ok) > 1 {
			n := ok[1]
			margin := r.metric(n)/r.metric(c) - 1
			fmt.Fprintf(w, "Runner-up: %s at %.3f ms, %.1f%% slower", n.Candidate, r.metric(n), 100*margin)
			if margin < max(r.spread(c), r.spread(n)) {
				fmt.Fprintf(w, ", within the runs' spread (%.1f%% / %.1f%%): the two may trade places on another run", 100*r.spread(c), 100*r.spread(n))
			}
			fmt.Fprintln(w, ".")
		}
		out := r.Output
		if out == "" {
			out = "OUT.pte"
		}
		fmt.Fprintf(w, "Run it as measured: etgo run %s --threads %d (etgo bench likewise).\n", out, c.Threads)
	}
	fmt.Fprintf(w, "\nOutputs were checked against %s's (tolerance %g, scaled by the largest output magnitude).\n", r.Reference, r.Tolerance)
	// The candidates not chosen for something other than time, grouped by reason.
	var reasons []string
	byReason := map[string][]string{}
	for _, c := range r.Candidates {
		if c.Status != tuneMeasured {
			k := c.Status + ": " + firstLine(c.Reason)
			if byReason[k] == nil {
				reasons = append(reasons, k)
			}
			byReason[k] = append(byReason[k], c.Candidate)
		}
	}
	for _, k := range reasons {
		fmt.Fprintf(w, "Not chosen, %s\n    %s\n", k, strings.Join(byReason[k], "\n    "))
	}
	fmt.Fprintln(w)
	r.writeTable(w)
}

// parseThreads reads --threads' list, "1,2".
func parseThreads(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, usageErrorf("--threads takes thread counts of at least 1 separated by commas, got %q", s)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

func (a *app) tuneCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "tune MODEL.pt2 -o OUT.pte",
		Short: "try every partitioner order, transform-pass choice and thread count; write the fastest .pte",
		Long: `Lower a .pt2 every way etgo can and time each on this machine: the portable-only program, each
partitioner alone and every order of them, each with and without the transform passes, at each
--threads count. Every candidate's outputs are checked against the first's (the portable
kernels'); one that disagrees is not chosen, nor is one etgo cannot lower, load or run here (a
backend whose compiler or device is missing is listed as not measurable). The others are timed
alternately, --rounds rounds of --iterations runs each, so a change of load falls on all alike;
the table gives each one's median, fastest run, spread ((p90 - p10) / median) and CPU time.
The fastest by median (--by wall, or cpu) is written to OUT.pte, with a why-report (--why, default OUT.why.txt):
the margin over the runner-up against the spread, and why the others were not chosen.`,
		Example: `  etgo tune testdata/zoo/mobilenet_v2_small/model.pt2 -o best.pte
  etgo tune model.pt2 -o best.pte --partitioner xnnpack --threads 1,2
  etgo tune model.pt2 -o best.pte --threads 1 --rounds 3 --json`,
		Args:              fileArgs("MODEL.pt2"),
		ValidArgsFunction: completeFiles("pt2"),
	}
	fs := c.Flags()
	outPath := fs.StringP("output", "o", "", "write the fastest lowering to `OUT.pte`")
	whyPath := fs.String("why", "", "write the why-report to `WHY.txt` (default: OUT.pte's name with .why.txt)")
	threads := fs.String("threads", tuneDefaultThreads, "the thread `COUNTS` to try, separated by commas")
	rounds := fs.Int("rounds", 5, "`N` alternating rounds (at least 1)")
	iters := fs.Int("iterations", 10, "`N` timed runs per candidate per round (at least 1)")
	warmup := fs.Int("warmup", 3, "`N` untimed runs of each candidate first (at least 0)")
	tol := fs.Float64("tolerance", 1e-3, "the largest output difference to the reference accepted, times max(1, the largest output magnitude)")
	inputs := fs.StringArray("input", nil, "an input `FILE.npy`, once per method input, in order (default: seeded random values of the declared shapes)")
	by := fs.String("by", "wall", "choose by the median run's `TIME`: wall, or cpu (the process's CPU time: steadier on a loaded machine, blind to what a second thread gains)")
	names := fs.StringArray("partitioner", nil, "a partitioner `NAME` to combine (repeatable; default every one: "+strings.Join(partitionerNames(), ", ")+")")
	asJSON := fs.Bool("json", false, "print the table as JSON (schema: docs/cli-json.md)")
	_ = c.RegisterFlagCompletionFunc("partitioner", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return slices.Clone(partitionerNames()), cobra.ShellCompDirectiveNoFileComp
	})
	_ = c.MarkFlagFilename("output", "pte")
	_ = c.MarkFlagFilename("why", "txt")
	_ = c.MarkFlagFilename("input", "npy")
	return a.command(c, func(_ *cobra.Command, args []string) error {
		path := args[0]
		if *outPath == "" {
			return usageErrorf("give -o OUT.pte for the fastest lowering")
		}
		for _, err := range []error{atLeast("rounds", *rounds, 1), atLeast("iterations", *iters, 1), atLeast("warmup", *warmup, 0)} {
			if err != nil {
				return err
			}
		}
		if *tol < 0 || math.IsNaN(*tol) {
			return usageErrorf("--tolerance must be at least 0, got %g", *tol)
		}
		th, err := parseThreads(*threads)
		if err != nil {
			return err
		}
		if *by != "wall" && *by != "cpu" {
			return usageErrorf("--by takes wall or cpu, got %q", *by)
		}
		parts := *names
		if len(parts) == 0 {
			parts = partitionerNames()
		}
		for i, n := range parts {
			if !slices.Contains(partitionerNames(), n) || slices.Contains(parts[:i], n) {
				return usageErrorf("--partitioner %q: give each of %s at most once", n, strings.Join(partitionerNames(), ", "))
			}
		}
		why := *whyPath
		if why == "" {
			why = strings.TrimSuffix(*outPath, filepath.Ext(*outPath)) + ".why.txt"
		}
		if err := checkOutputs(append([]string{path}, *inputs...), output{"-o " + *outPath, *outPath}, output{"--why " + why, why}); err != nil {
			return err
		}
		ctx, stop := interruptible()
		defer stop()
		progress := a.stderr
		if *asJSON {
			progress = io.Discard
		}
		res, err := tune(ctx, tuneOptions{model: path, names: parts, threads: th, rounds: *rounds, iterations: *iters,
			warmup: *warmup, tolerance: *tol, by: *by, inputs: *inputs, timeRun: realTime}, progress)
		if err != nil {
			return err
		}
		return a.finishTune(res, *outPath, why, *asJSON)
	})
}

// finishTune writes the chosen program and the why-report, and prints the table.
func (a *app) finishTune(res *tuneResult, out, why string, asJSON bool) error {
	res.Why = why
	var chosen *tuneRow
	for i := range res.Candidates {
		if res.Candidates[i].Candidate == res.Chosen {
			chosen = &res.Candidates[i]
			res.Output = out // nothing is written otherwise
		}
	}
	var b strings.Builder
	res.writeWhy(&b)
	if err := os.WriteFile(why, []byte(b.String()), 0o644); err != nil {
		return err
	}
	if chosen == nil {
		if asJSON {
			_ = writeJSON(a.stdout, res)
		} else {
			res.writeTable(a.stdout)
		}
		return errors.New("tune: no candidate could be measured on this machine (see " + why + ")")
	}
	if err := os.WriteFile(out, chosen.program, 0o644); err != nil {
		return err
	}
	if asJSON {
		return writeJSON(a.stdout, res)
	}
	res.writeTable(a.stdout)
	fmt.Fprintf(a.stdout, "\nwrote %s (%s), why: %s\n", out, res.Chosen, why)
	return nil
}
