package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/etgo/etgo/devtools/etdump"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/runtime"
)

func init() {
	commands["bench"] = command{
		summary: "time a method: load time and the latency distribution of Execute",
		usage:   "bench FILE.pte [--method forward] [--input a.npy]... [--threads 1] [--warmup 5] [--iterations 50] [--profile [--top N]] [--etdump OUT.etdp] [--json] [--cpuprofile FILE]",
		run:     runBench,
	}
}

// benchResult is the --json output.
type benchResult struct {
	File       string  `json:"file"`
	Method     string  `json:"method"`
	Threads    int     `json:"threads"`
	LoadMS     float64 `json:"load_ms"`
	Iterations int     `json:"iterations"`
	MinMS      float64 `json:"min_ms"`
	MedianMS   float64 `json:"median_ms"`
	P90MS      float64 `json:"p90_ms"`
	MeanMS     float64 `json:"mean_ms"`
	// Profile is --profile's per-instruction times, slowest first.
	Profile     []benchInstruction `json:"profile,omitempty"`
	ProfileRuns int                `json:"profile_runs,omitempty"`
}

func runBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", stderr)
	method := fs.String("method", "forward", "method to run")
	warmup := fs.Int("warmup", 5, "untimed runs first")
	iters := fs.Int("iterations", 50, "timed runs")
	asJSON := fs.Bool("json", false, "print JSON")
	threads := fs.Int("threads", 1, "goroutines a delegate call may use (XNNPACK)")
	cpuProfile := fs.String("cpuprofile", "", "write a Go CPU profile of the timed runs here (go tool pprof)")
	profile := fs.Bool("profile", false, "after the timed runs, time each kernel and delegate call over as many runs and list the slowest")
	top := fs.Int("top", 15, "with --profile: how many instructions to list (0: all)")
	etdumpPath := fs.String("etdump", "", "after the timed runs, load the method again traced and write its loading and as many runs as an ETDump here (executorch.devtools.Inspector reads it)")
	var inputs stringList
	fs.Var(&inputs, "input", "a .npy input, once per method input (default: seeded random values of the declared shapes)")
	path, err := parseFileAndFlags(fs, args)
	if err != nil {
		return err
	}
	if *iters < 1 || *warmup < 0 {
		return errUsage
	}
	reg, err := newRegistry(*threads)
	if err != nil {
		return err
	}
	start := time.Now()
	p, err := runtime.Open(path, runtime.Options{Registry: reg})
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
	in, err := benchInputs(m, inputs)
	if err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	for i := 0; i < *warmup; i++ {
		if _, err := m.Execute(ctx, in...); err != nil {
			return err
		}
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
	times := make([]float64, *iters)
	for i := range times {
		t0 := time.Now()
		if _, err := m.Execute(ctx, in...); err != nil {
			return err
		}
		times[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
	}
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	mean := 0.0
	for _, t := range times {
		mean += t
	}
	r := benchResult{File: path, Method: *method, Threads: *threads, LoadMS: float64(load.Nanoseconds()) / 1e6, Iterations: *iters,
		MinMS: sorted[0], MedianMS: sorted[len(sorted)/2], P90MS: sorted[len(sorted)*9/10], MeanMS: mean / float64(len(times))}
	if *profile {
		// A separate pass, so the clock reads do not touch the latencies above.
		m.EnableProfiling(true)
		for range *iters {
			if _, err := m.Execute(ctx, in...); err != nil {
				return err
			}
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
		if err := writeETDump(p, *method, *etdumpPath, *iters, func(tm *runtime.Method) error {
			_, err := tm.Execute(ctx, in...)
			return err
		}); err != nil {
			return err
		}
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(r)
	}
	fmt.Fprintf(stdout, "%s %s (%d thread(s)): load %.2f ms; %d runs: min %.3f ms, median %.3f ms, p90 %.3f ms\n",
		path, *method, *threads, r.LoadMS, r.Iterations, r.MinMS, r.MedianMS, r.P90MS)
	if *profile {
		printProfile(stdout, r, *top)
	}
	return nil
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
func benchInputs(m *runtime.Method, files []string) ([]*runtime.EValue, error) {
	var in []*runtime.EValue
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
			in = append(in, &runtime.EValue{Tag: runtime.TagTensor, Tensor: t})
		}
		return in, nil
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < m.NumInputs(); i++ {
		want := m.Input(i)
		if want.Tag != runtime.TagTensor {
			in = append(in, want) // traced scalars must be passed as traced
			continue
		}
		t, err := runtime.NewTensor(want.Tensor.ScalarType(), want.Tensor.Sizes()...)
		if err != nil {
			return nil, err
		}
		switch t.ScalarType() {
		case runtime.Float32:
			d := runtime.Data[float32](t)
			for k := range d {
				d[k] = float32(rng.NormFloat64())
			}
		case runtime.Int64:
			d := runtime.Data[int64](t)
			for k := range d {
				d[k] = rng.Int64N(3)
			}
		}
		in = append(in, &runtime.EValue{Tag: runtime.TagTensor, Tensor: t})
	}
	return in, nil
}

// writeETDump loads method of p traced, runs it runs times with run, and writes the ETDump.
func writeETDump(p *runtime.Program, method, path string, runs int, run func(*runtime.Method) error) error {
	rec := etdump.NewRecorder()
	tm, err := p.LoadMethod(method, runtime.WithEventTracer(rec))
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
