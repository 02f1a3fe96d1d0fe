package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/devtools/etdump"
	"github.com/etgo/etgo/devtools/inspect"
	"github.com/etgo/etgo/internal/fileio"
	"github.com/etgo/etgo/pte"
)

func init() {
	commands["inspect"] = command{
		summary: "show what a .pte holds: methods, instructions, operators, delegates, segments, requirements",
		usage:   "inspect [--json] FILE.pte|FILE.etdp",
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
	if isETDump(path) {
		d, err := etdump.ReadFile(path)
		if err != nil {
			return err
		}
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(etdumpReport{File: path, Version: d.Version, Blocks: len(d.Runs), Events: d.Stats()})
		}
		fmt.Fprintf(stdout, "%s: ", path)
		d.WriteSummary(stdout)
		return nil
	}
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

// etdumpReport is inspect --json of an ETDump.
type etdumpReport struct {
	File    string              `json:"file"`
	Version uint32              `json:"version"`
	Blocks  int                 `json:"blocks"`
	Events  []etdump.EventStats `json:"events"`
}

// isETDump reports whether path is a regular file that starts as an ETDump does (a size
// prefix, then the "ED00" identifier). Anything else (a FIFO or a device, which must not be
// waited on or read without bound) is left to pte.Open to refuse.
func isETDump(path string) bool {
	f, _, err := fileio.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [12]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return false
	}
	return string(head[8:12]) == etdump.Identifier
}
