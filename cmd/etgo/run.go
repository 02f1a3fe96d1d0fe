package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/etgo/etgo/devtools/etdump"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/npy"
)

// runSchema is the version of etgo run --json's document (docs/cli-json.md).
const runSchema = 1

// runResult is etgo run --json.
type runResult struct {
	SchemaVersion int         `json:"schema_version"`
	File          string      `json:"file"`
	Method        string      `json:"method"`
	Threads       int         `json:"threads"`
	Inputs        []string    `json:"inputs"`
	Outputs       []runOutput `json:"outputs"`
	ETDump        string      `json:"etdump,omitempty"` // the ETDump written, with --etdump
}

// runOutput is one output of the method: a tensor's dtype, shape and statistics (and the .npy
// written for it, with --output-dir), or a scalar's value.
type runOutput struct {
	Index int          `json:"index"`
	Type  string       `json:"type"` // the EValue tag: Tensor, Int, Double, Bool, String, IntList, …
	DType string       `json:"dtype,omitempty"`
	Shape *[]int       `json:"shape,omitempty"` // a pointer: a 0-d tensor's [] is not omitted
	Stats *tensorStats `json:"stats,omitempty"`
	Path  string       `json:"path,omitempty"`
	Value any          `json:"value,omitempty"` // a non-tensor output's value
}

func (a *app) runCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "run FILE.pte [--input a.npy]...",
		Short: "run a method of a .pte on .npy inputs; print and save the outputs",
		Long: `Run a method of a program with this binary's portable kernels and backends, on .npy inputs
(one --input per method input, in order), and print each output: dtype, shape, minimum,
maximum, mean and the first values. --output-dir saves them as output_<i>.npy, as numpy.save
writes them; an output that would overwrite an input is refused before the run. Errors say
whether loading ("load: ...") or running ("execute: ...") failed. Ctrl-C stops the run
between instructions (exit status 130).`,
		Example: `  etgo run testdata/zoo/split_delegation/xnnpack.pte --input testdata/zoo/split_delegation/inputs/input_0.npy
  etgo run model.pte --input x.npy --output-dir out --json`,
		Args:              fileArgs("FILE.pte"),
		ValidArgsFunction: completeFiles("pte"),
	}
	fs := c.Flags()
	method := fs.String("method", "forward", "run the method `NAME`")
	inputs := fs.StringArray("input", nil, "an input `FILE.npy`, once per method input, in order")
	outDir := fs.String("output-dir", "", "write the outputs to `DIR` as output_<i>.npy (created if missing)")
	threads := fs.Int("threads", 1, "`N` goroutines a delegate call may use (XNNPACK; at least 1)")
	etdumpPath := fs.String("etdump", "", "write the method's loading and run as an ETDump to `FILE.etdp` (executorch.devtools.Inspector reads it)")
	asJSON := fs.Bool("json", false, "print the outputs as JSON (schema: docs/cli-json.md)")
	_ = c.MarkFlagFilename("input", "npy")
	_ = c.MarkFlagDirname("output-dir")
	_ = c.MarkFlagFilename("etdump", "etdp")
	return a.command(c, func(_ *cobra.Command, args []string) error {
		path := args[0]
		if err := atLeast("threads", *threads, 1); err != nil {
			return err
		}
		readFrom := append([]string{path}, *inputs...)
		if err := checkOutputs(readFrom, output{"--etdump " + *etdumpPath, *etdumpPath}); err != nil {
			return err
		}
		reg, err := newRegistry(*threads)
		if err != nil {
			return err
		}
		// Errors say whether loading or running failed: the mutation campaign
		// (tools/reference/mutate_blobs.py) compares that with the official runtime's verdict.
		p, err := executor.Open(path, executor.Options{Registry: reg})
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		defer p.Close()
		var opts []executor.MethodOption
		var rec *etdump.Recorder
		if *etdumpPath != "" {
			rec = etdump.NewRecorder()
			opts = append(opts, executor.WithEventTracer(rec))
		}
		m, err := p.LoadMethod(*method, opts...)
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		defer m.Close()
		// The method says how many outputs there will be, so a clash with an input is found
		// before the inputs are read or anything runs.
		outPaths := make([]string, m.NumOutputs())
		if *outDir != "" {
			outs := []output{{"--etdump " + *etdumpPath, *etdumpPath}}
			for i := range outPaths {
				outPaths[i] = filepath.Join(*outDir, fmt.Sprintf("output_%d.npy", i))
				outs = append(outs, output{fmt.Sprintf("--output-dir %s (output %d)", *outDir, i), outPaths[i]})
			}
			if err := checkOutputs(readFrom, outs...); err != nil {
				return err
			}
		}
		var in []*executor.EValue
		for _, f := range *inputs {
			arr, err := npy.Load(f)
			if err != nil {
				return err
			}
			t, err := npyconv.Tensor(arr)
			if err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			in = append(in, &executor.EValue{Tag: executor.TagTensor, Tensor: t})
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
		r := runResult{SchemaVersion: runSchema, File: path, Method: *method, Threads: *threads, Inputs: append([]string{}, *inputs...),
			Outputs: []runOutput{}, ETDump: *etdumpPath}
		for i, o := range outs {
			ro := runOutput{Index: i, Type: o.Tag.String()}
			if o.Tag != executor.TagTensor {
				ro.Value = scalarValue(o)
				r.Outputs = append(r.Outputs, ro)
				if !*asJSON {
					fmt.Fprintf(a.stdout, "output %d: %s %s\n", i, o.Tag, o)
				}
				continue
			}
			arr, err := npyconv.Array(o.Tensor)
			if err != nil {
				return fmt.Errorf("output %d: %w", i, err)
			}
			if !*asJSON {
				fmt.Fprintf(a.stdout, "output %d: %s\n", i, describeArray(arr, 8))
			}
			if *outDir != "" && i < len(outPaths) {
				if err := npy.Save(outPaths[i], arr); err != nil {
					return err
				}
				ro.Path = outPaths[i]
			}
			shape := append([]int{}, arr.Shape...)
			ro.DType, ro.Shape = arr.DType.String(), &shape
			if s, _, err := arrayFacts(arr, 0); err == nil {
				ro.Stats = &s
			}
			r.Outputs = append(r.Outputs, ro)
		}
		if *asJSON {
			return writeJSON(a.stdout, r)
		}
		return nil
	})
}

// scalarValue is a non-tensor output as JSON: numbers, booleans and strings as themselves,
// lists of them as arrays, anything else (a tensor list) as its text.
func scalarValue(v *executor.EValue) any {
	switch v.Tag {
	case executor.TagNone:
		return nil
	case executor.TagInt:
		return v.Int
	case executor.TagDouble:
		return number(v.Double)
	case executor.TagBool:
		return v.Bool
	case executor.TagString:
		return v.Str
	case executor.TagIntList:
		return v.Ints()
	case executor.TagDoubleList:
		out := make([]number, len(v.Doubles))
		for i, d := range v.Doubles {
			out[i] = number(d)
		}
		return out
	case executor.TagBoolList:
		return v.Bools
	}
	return v.String()
}
