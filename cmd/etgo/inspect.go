package main

import (
	"encoding/json"
	"io"

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
		return err
	}
	defer f.Close()
	r := inspect.Summarize(f, path)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	r.WriteText(stdout)
	return nil
}
