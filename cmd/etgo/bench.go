package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/runtime"
)

func init() {
	commands["bench"] = command{
		summary: "time a method: load time and the latency distribution of Execute",
		usage:   "bench FILE.pte [--method forward] [--input a.npy]... [--threads 1] [--warmup 5] [--iterations 50] [--json] [--cpuprofile FILE]",
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
}

func runBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", stderr)
	method := fs.String("method", "forward", "method to run")
	warmup := fs.Int("warmup", 5, "untimed runs first")
	iters := fs.Int("iterations", 50, "timed runs")
	asJSON := fs.Bool("json", false, "print JSON")
	threads := fs.Int("threads", 1, "goroutines a delegate call may use (XNNPACK)")
	cpuProfile := fs.String("cpuprofile", "", "write a Go CPU profile of the timed runs here (go tool pprof)")
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
	ctx := context.Background()
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
	if *asJSON {
		return json.NewEncoder(stdout).Encode(r)
	}
	fmt.Fprintf(stdout, "%s %s (%d thread(s)): load %.2f ms; %d runs: min %.3f ms, median %.3f ms, p90 %.3f ms\n",
		path, *method, *threads, r.LoadMS, r.Iterations, r.MinMS, r.MedianMS, r.P90MS)
	return nil
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
