package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/etgo/etgo/devtools/etdump"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/npy"
)

// benchSchema is the version of etgo bench --json's document (docs/cli-json.md).
const benchSchema = 1

// benchResult is the --json output.
type benchResult struct {
	SchemaVersion int     `json:"schema_version"`
	File          string  `json:"file"`
	Method        string  `json:"method"`
	Threads       int     `json:"threads"`
	LoadMS        float64 `json:"load_ms"`
	Warmup        int     `json:"warmup"`
	Iterations    int     `json:"iterations"`
	MinMS         float64 `json:"min_ms"`
	MedianMS      float64 `json:"median_ms"`
	P90MS         float64 `json:"p90_ms"`
	MeanMS        float64 `json:"mean_ms"`
	// Profile is --profile's per-instruction times, slowest first.
	Profile     []benchInstruction `json:"profile,omitempty"`
	ProfileRuns int                `json:"profile_runs,omitempty"`
	ETDump      string             `json:"etdump,omitempty"`     // the ETDump written, with --etdump
	CPUProfile  string             `json:"cpuprofile,omitempty"` // the Go CPU profile written, with --cpuprofile
}

func (a *app) benchCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "bench FILE.pte",
		Short: "time a method: load time and the latency distribution of Execute",
		Long: `Time a method: the load (program and method), then --warmup untimed runs and --iterations
timed ones, reported as min, median and p90 latency. --profile adds, over as many more runs,
each kernel and delegate call's mean time and share of Execute. Inputs are the --input files,
or seeded random values of the declared shapes. On a terminal a progress bar shows the runs
(on stderr; never with --json). Ctrl-C stops between runs (exit status 130).
tools/reference/bench.py runs it against the official runtime, alternating.`,
		Example: `  etgo bench testdata/zoo/mobilenet_v2_small/xnnpack.pte --threads 2
  etgo bench split.pte --profile --top 5
  etgo bench split.pte --iterations 200 --json`,
		Args:              fileArgs("FILE.pte"),
		ValidArgsFunction: completeFiles("pte"),
	}
	fs := c.Flags()
	method := fs.String("method", "forward", "run the method `NAME`")
	inputs := fs.StringArray("input", nil, "an input `FILE.npy`, once per method input, in order (default: seeded random values of the declared shapes)")
	warmup := fs.Int("warmup", 5, "`N` untimed runs first (at least 0)")
	iters := fs.Int("iterations", 50, "`N` timed runs (at least 1)")
	threads := fs.Int("threads", 1, "`N` goroutines a delegate call may use (XNNPACK; at least 1)")
	profile := fs.Bool("profile", false, "after the timed runs, time each kernel and delegate call over as many runs and list the slowest")
	top := fs.Int("top", 15, "with --profile: list the `N` slowest instructions (0: all)")
	etdumpPath := fs.String("etdump", "", "after the timed runs, load the method again traced and write its loading and as many runs as an ETDump to `FILE.etdp` (executorch.devtools.Inspector reads it)")
	cpuProfile := fs.String("cpuprofile", "", "write a Go CPU profile of the timed runs to `FILE` (go tool pprof)")
	asJSON := fs.Bool("json", false, "print the timings as JSON (schema: docs/cli-json.md)")
	_ = c.MarkFlagFilename("input", "npy")
	_ = c.MarkFlagFilename("etdump", "etdp")
	return a.command(c, func(cmd *cobra.Command, args []string) error {
		path := args[0]
		for _, err := range []error{atLeast("iterations", *iters, 1), atLeast("warmup", *warmup, 0),
			atLeast("threads", *threads, 1), atLeast("top", *top, 0)} {
			if err != nil {
				return err
			}
		}
		if cmd.Flags().Changed("top") && !*profile {
			return usageErrorf("--top lists --profile's instructions: give --profile too")
		}
		readFrom := append([]string{path}, *inputs...)
		if err := checkOutputs(readFrom, output{"--etdump " + *etdumpPath, *etdumpPath}, output{"--cpuprofile " + *cpuProfile, *cpuProfile}); err != nil {
			return err
		}
		reg, err := newRegistry(*threads)
		if err != nil {
			return err
		}
		start := time.Now()
		p, err := executor.Open(path, executor.Options{Registry: reg})
		if err != nil {
			return err
		}
		defer p.Close()
		m, err := p.LoadMethod(*method)
		if err != nil {
			return err
		}
		defer m.Close()
		load := time.Since(start)
		in, err := benchInputs(m, *inputs)
		if err != nil {
			return err
		}
		ctx, stop := interruptible()
		defer stop()
		runs := *warmup + *iters
		if *profile {
			runs += *iters
		}
		if *etdumpPath != "" {
			runs += *iters
		}
		bar := newRuns(a.stderr, *asJSON, runs, "warmup")
		defer bar.finish()
		for i := 0; i < *warmup; i++ {
			if _, err := m.Execute(ctx, in...); err != nil {
				return err
			}
			bar.add(1)
		}
		if *cpuProfile != "" {
			f, err := os.Create(*cpuProfile)
			if err != nil {
				return err
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				return err
			}
			defer pprof.StopCPUProfile()
		}
		bar.describe("timed")
		times := make([]float64, *iters)
		for i := range times {
			t0 := time.Now()
			if _, err := m.Execute(ctx, in...); err != nil {
				return err
			}
			times[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
			bar.add(1) // after the clock is read: the bar's drawing is not timed
		}
		sorted := slices.Clone(times)
		slices.Sort(sorted)
		mean := 0.0
		for _, t := range times {
			mean += t
		}
		r := benchResult{SchemaVersion: benchSchema, File: path, Method: *method, Threads: *threads, LoadMS: float64(load.Nanoseconds()) / 1e6,
			Warmup: *warmup, Iterations: *iters, MinMS: sorted[0], MedianMS: sorted[len(sorted)/2], P90MS: sorted[len(sorted)*9/10],
			MeanMS: mean / float64(len(times)), ETDump: *etdumpPath, CPUProfile: *cpuProfile}
		if *profile {
			// A separate pass, so the clock reads do not touch the latencies above.
			bar.describe("profile")
			m.EnableProfiling(true)
			for range *iters {
				if _, err := m.Execute(ctx, in...); err != nil {
					return err
				}
				bar.add(1)
			}
			instrs, runs, total, _ := m.Profile()
			for _, in := range instrs {
				r.Profile = append(r.Profile, benchInstruction{Chain: in.Chain, Instruction: in.Instruction, Kind: in.Kind, Name: in.Name,
					Calls: in.Calls, TotalMS: float64(in.Total.Nanoseconds()) / 1e6, MeanUS: float64(in.Total.Nanoseconds()) / 1e3 / float64(in.Calls),
					Share: float64(in.Total) / float64(total)})
			}
			r.ProfileRuns = runs
		}
		if *etdumpPath != "" {
			// A method of its own, traced from its loading on, so the clock reads touch neither the
			// latencies above nor --profile's.
			bar.describe("etdump")
			if err := writeETDump(p, *method, *etdumpPath, *iters, func(tm *executor.Method) error {
				_, err := tm.Execute(ctx, in...)
				bar.add(1)
				return err
			}); err != nil {
				return err
			}
		}
		bar.finish()
		if *asJSON {
			return writeJSON(a.stdout, r)
		}
		fmt.Fprintf(a.stdout, "%s %s (%d thread(s)): load %.2f ms; %d runs: min %.3f ms, median %.3f ms, p90 %.3f ms\n",
			path, *method, *threads, r.LoadMS, r.Iterations, r.MinMS, r.MedianMS, r.P90MS)
		if *profile {
			printProfile(a.stdout, r, *top)
		}
		return nil
	})
}

// benchInstruction is one timed instruction of --profile.
type benchInstruction struct {
	Chain       int     `json:"chain"`
	Instruction int     `json:"instruction"`
	Kind        string  `json:"kind"`
	Name        string  `json:"name"`
	Calls       int     `json:"calls"`
	TotalMS     float64 `json:"total_ms"`
	MeanUS      float64 `json:"mean_us"`
	Share       float64 `json:"share"` // of the runs' whole Execute time
}

func printProfile(w io.Writer, r benchResult, top int) {
	fmt.Fprintf(w, "\nper instruction over %d profiled runs (share of Execute time; the rest is input/output copies and bookkeeping):\n", r.ProfileRuns)
	fmt.Fprintf(w, "  %-7s %-8s %-44s %10s %7s\n", "instr", "kind", "operator / backend", "mean µs", "share")
	covered := 0.0
	for i, in := range r.Profile {
		covered += in.Share
		if top > 0 && i >= top {
			continue
		}
		at := fmt.Sprint(in.Instruction)
		if in.Chain > 0 {
			at = fmt.Sprintf("%d:%d", in.Chain, in.Instruction)
		}
		fmt.Fprintf(w, "  %-7s %-8s %-44s %10.1f %6.1f%%\n", at, in.Kind, in.Name, in.MeanUS, 100*in.Share)
	}
	if top > 0 && len(r.Profile) > top {
		fmt.Fprintf(w, "  … %d more\n", len(r.Profile)-top)
	}
	fmt.Fprintf(w, "  instructions: %.1f%% of Execute time\n", 100*covered)
}

// benchInputs loads the given .npy files, or makes seeded random inputs of the declared shapes.
func benchInputs(m *executor.Method, files []string) ([]*executor.EValue, error) {
	var in []*executor.EValue
	if len(files) > 0 {
		for _, f := range files {
			a, err := npy.Load(f)
			if err != nil {
				return nil, err
			}
			t, err := npyconv.Tensor(a)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			in = append(in, &executor.EValue{Tag: executor.TagTensor, Tensor: t})
		}
		return in, nil
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < m.NumInputs(); i++ {
		want := m.Input(i)
		if want.Tag != executor.TagTensor {
			in = append(in, want) // traced scalars must be passed as traced
			continue
		}
		t, err := executor.NewTensor(want.Tensor.ScalarType(), want.Tensor.Sizes()...)
		if err != nil {
			return nil, err
		}
		switch t.ScalarType() {
		case executor.Float32:
			d := executor.Data[float32](t)
			for k := range d {
				d[k] = float32(rng.NormFloat64())
			}
		case executor.Int64:
			d := executor.Data[int64](t)
			for k := range d {
				d[k] = rng.Int64N(3)
			}
		}
		in = append(in, &executor.EValue{Tag: executor.TagTensor, Tensor: t})
	}
	return in, nil
}

// writeETDump loads method of p traced, runs it runs times with run, and writes the ETDump.
func writeETDump(p *executor.Program, method, path string, runs int, run func(*executor.Method) error) error {
	rec := etdump.NewRecorder()
	tm, err := p.LoadMethod(method, executor.WithEventTracer(rec))
	if err != nil {
		return err
	}
	defer tm.Close()
	for range runs {
		if err := run(tm); err != nil {
			return err
		}
	}
	if err := rec.Dump().WriteFile(path); err != nil {
		return fmt.Errorf("--etdump: %w", err)
	}
	return nil
}
