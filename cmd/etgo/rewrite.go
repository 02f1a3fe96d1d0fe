package main

import (
	"fmt"
	"io"
	"os"

	"github.com/etgo/etgo/pte"
)

func init() {
	commands["rewrite"] = command{
		summary: "read a .pte and write it back with etgo's writer (official layout; upgrades inline constants)",
		usage:   "rewrite [--segment-alignment N] [--constant-alignment N] [--inline-delegates] IN.pte OUT.pte",
		run:     runRewrite,
	}
}

func runRewrite(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("rewrite", stderr)
	opts := pte.DefaultWriteOptions
	fs.IntVar(&opts.SegmentAlignment, "segment-alignment", opts.SegmentAlignment, "alignment of every segment (power of two)")
	fs.IntVar(&opts.ConstantAlignment, "constant-alignment", opts.ConstantAlignment, "padding of each constant in the constant segment (power of two)")
	fs.BoolVar(&opts.InlineDelegates, "inline-delegates", false, "keep delegate blobs inside the flatbuffer instead of in segments")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return errUsage
	}
	in, out := fs.Arg(0), fs.Arg(1)
	f, err := pte.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	c, err := f.Contents()
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	b, err := pte.Write(c, opts)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d bytes -> %s: %d bytes\n", in, len(f.Bytes()), out, len(b))
	return nil
}
