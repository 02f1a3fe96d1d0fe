package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/etgo/etgo/pte"
)

func init() {
	commands["check"] = command{
		summary: "does this binary carry every backend and kernel a .pte needs? (exit 0 only if so)",
		usage:   "check FILE.pte",
		run:     runCheck,
	}
}

var errMissing = errors.New("this binary cannot run the program")

func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errUsage
	}
	f, err := pte.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	reg, err := newRegistry(1)
	if err != nil {
		return err
	}
	missing := 0
	line := func(kind, name string, ok bool) {
		mark := "ok     "
		if !ok {
			mark = "MISSING"
			missing++
		}
		fmt.Fprintf(stdout, "  %s %-8s %s\n", mark, kind, name)
	}
	fmt.Fprintf(stdout, "%s needs:\n", fs.Arg(0))
	for _, b := range f.RequiredBackends() {
		be, ok := reg.Backend(b)
		line("backend", b, ok && be.IsAvailable())
	}
	for _, op := range f.RequiredOperators() {
		_, ok := reg.Kernel(op)
		line("kernel", op, ok)
	}
	for method, names := range f.ExternalTensors() {
		for _, n := range names {
			fmt.Fprintf(stdout, "  MISSING data     %s (method %s: external .ptd data is not supported yet)\n", n, method)
			missing++
		}
	}
	if missing > 0 {
		return fmt.Errorf("%w: %d of its needs are missing", errMissing, missing)
	}
	fmt.Fprintln(stdout, "everything is present")
	return nil
}
