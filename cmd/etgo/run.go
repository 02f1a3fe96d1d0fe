package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/etgo/etgo/devtools/etdump"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/runtime"
)

func init() {
	commands["run"] = command{
		summary: "run a method of a .pte on .npy inputs; print and save the outputs",
		usage:   "run FILE.pte [--method forward] [--input a.npy]... [--output-dir DIR] [--threads N] [--etdump OUT.etdp]",
		run:     runRun,
	}
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

var _ flag.Value = (*stringList)(nil)

func runRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	method := fs.String("method", "forward", "method to run")
	outDir := fs.String("output-dir", "", "write output_<i>.npy files here")
	threads := fs.Int("threads", 1, "goroutines a delegate call may use (XNNPACK)")
	etdumpPath := fs.String("etdump", "", "write the method's loading and run as an ETDump here (executorch.devtools.Inspector reads it)")
	var inputs stringList
	fs.Var(&inputs, "input", "a .npy input, once per method input, in order")
	path, err := parseFileAndFlags(fs, args)
	if err != nil {
		return err
	}
	reg, err := newRegistry(*threads)
	if err != nil {
		return err
	}
	// Errors say whether loading or running failed: the mutation campaign
	// (tools/reference/mutate_blobs.py) compares that with the official runtime's verdict.
	p, err := runtime.Open(path, runtime.Options{Registry: reg})
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	defer p.Close()
	var opts []runtime.MethodOption
	var rec *etdump.Recorder
	if *etdumpPath != "" {
		rec = etdump.NewRecorder()
		opts = append(opts, runtime.WithEventTracer(rec))
	}
	m, err := p.LoadMethod(*method, opts...)
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	defer m.Close()
	var in []*runtime.EValue
	for _, f := range inputs {
		a, err := npy.Load(f)
		if err != nil {
			return err
		}
		t, err := npyconv.Tensor(a)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		in = append(in, &runtime.EValue{Tag: runtime.TagTensor, Tensor: t})
	}
	ctx, stop := interruptible()
	defer stop()
	outs, err := m.Execute(ctx, in...)
	if err != nil {
		return fmt.Errorf("execute: %w", err)
	}
	if rec != nil {
		if err := rec.Dump().WriteFile(*etdumpPath); err != nil {
			return fmt.Errorf("--etdump: %w", err)
		}
	}
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			return err
		}
	}
	for i, o := range outs {
		if o.Tag != runtime.TagTensor {
			fmt.Fprintf(stdout, "output %d: %s %s\n", i, o.Tag, o)
			continue
		}
		a, err := npyconv.Array(o.Tensor)
		if err != nil {
			return fmt.Errorf("output %d: %w", i, err)
		}
		fmt.Fprintf(stdout, "output %d: %s\n", i, describeArray(a, 8))
		if *outDir != "" {
			if err := npy.Save(filepath.Join(*outDir, fmt.Sprintf("output_%d.npy", i)), a); err != nil {
				return err
			}
		}
	}
	return nil
}
