package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/etgo/etgo/pte"
)

// rewriteSchema is the version of etgo rewrite --json's document (docs/cli-json.md).
const rewriteSchema = 1

// rewriteResult is etgo rewrite --json.
type rewriteResult struct {
	SchemaVersion int    `json:"schema_version"`
	Input         string `json:"input"`
	InputBytes    int    `json:"input_bytes"`
	Output        string `json:"output"`
	OutputBytes   int    `json:"output_bytes"`
}

func (a *app) rewriteCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "rewrite IN.pte OUT.pte",
		Short: "read a .pte and write it back with etgo's writer (official layout; upgrades inline constants)",
		Long: `Read a program and write it back with etgo's writer, in the official toolchain's layout
(extended header, segments, alignment). Files in the deprecated inline-constant format come
out upgraded, which the official pip runtime then loads (testdata/rewrite_report.md). OUT.pte
must not be IN.pte.`,
		Example:           "  etgo rewrite old.pte new.pte --segment-alignment 4096",
		Args:              fileArgs("IN.pte", "OUT.pte"),
		ValidArgsFunction: completeFiles("pte"),
	}
	opts := pte.DefaultWriteOptions
	c.Flags().IntVar(&opts.SegmentAlignment, "segment-alignment", opts.SegmentAlignment, "align every segment to `N` bytes (a power of two)")
	c.Flags().IntVar(&opts.ConstantAlignment, "constant-alignment", opts.ConstantAlignment, "pad each constant in the constant segment to `N` bytes (a power of two)")
	c.Flags().BoolVar(&opts.InlineDelegates, "inline-delegates", false, "keep delegate blobs inside the flatbuffer instead of in segments")
	asJSON := c.Flags().Bool("json", false, "print the sizes as JSON (schema: docs/cli-json.md)")
	return a.command(c, func(_ *cobra.Command, args []string) error {
		in, out := args[0], args[1]
		for _, f := range []struct {
			name string
			v    int
		}{{"segment-alignment", opts.SegmentAlignment}, {"constant-alignment", opts.ConstantAlignment}} {
			if f.v < 1 || f.v&(f.v-1) != 0 {
				return usageErrorf("--%s must be a power of two, got %d", f.name, f.v)
			}
		}
		// The input is memory-mapped while the output is written: writing it over the input
		// would change the bytes under the reader.
		if err := checkOutputs([]string{in}, output{"OUT.pte " + out, out}); err != nil {
			return err
		}
		f, err := pte.Open(in)
		if err != nil {
			return err
		}
		defer f.Close()
		contents, err := f.Contents()
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		b, err := pte.Write(contents, opts)
		if err != nil {
			return err
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(a.stdout, rewriteResult{SchemaVersion: rewriteSchema, Input: in, InputBytes: len(f.Bytes()), Output: out, OutputBytes: len(b)})
		}
		fmt.Fprintf(a.stdout, "%s: %d bytes -> %s: %d bytes\n", in, len(f.Bytes()), out, len(b))
		return nil
	})
}
