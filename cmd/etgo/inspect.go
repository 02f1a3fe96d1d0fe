package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/devtools/inspect"
	"github.com/etgo/etgo/pte"
)

func init() {
	commands["inspect"] = command{
		summary: "show what a .pte holds: methods, instructions, operators, delegates, segments, requirements",
		usage:   "inspect [--json] FILE.pte",
		run:     runInspect,
	}
}

func runInspect(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("inspect", stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON (schema: docs/inspect.md)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errUsage
	}
	path := fs.Arg(0)
	f, err := pte.Open(path)
	if err != nil {
		if isZipArchive(path) {
			// A .pt2 (torch.export.save writes a zip archive): say what to do with it rather
			// than only that it is not a .pte.
			return fmt.Errorf("%s is a zip archive, as torch.export.save writes a .pt2, not an ExecuTorch program: "+
				"lower it with `etgo lower %s --plan` (or -o OUT.pte), then inspect the .pte", path, path)
		}
		return err
	}
	defer f.Close()
	r := inspect.Summarize(f, path, all.Registry().BlobDescribers())
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	r.WriteText(stdout)
	return nil
}

// isZipArchive reports whether a regular file starts with a zip local-file header (a FIFO or
// device is never opened: opening a FIFO would wait for a writer).
func isZipArchive(path string) bool {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	_, err = io.ReadFull(f, magic[:])
	return err == nil && string(magic[:]) == "PK\x03\x04"
}
