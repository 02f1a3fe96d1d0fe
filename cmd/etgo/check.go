package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/spf13/cobra"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/pte"
)

var errMissing = errors.New("this binary cannot run the program")

// checkSchema is the version of etgo check --json's document (docs/cli-json.md).
const checkSchema = 1

// checkResult is etgo check --json.
type checkResult struct {
	SchemaVersion int         `json:"schema_version"`
	File          string      `json:"file"`
	OK            bool        `json:"ok"`
	Missing       int         `json:"missing"`
	Needs         []checkNeed `json:"needs"`
}

// checkNeed is one thing the program needs from the binary that runs it.
type checkNeed struct {
	Kind    string `json:"kind"` // backend, kernel or data
	Name    string `json:"name"`
	Method  string `json:"method,omitempty"` // for data: the method whose tensor it is
	Present bool   `json:"present"`
	// Reason says why a registered backend cannot run here (its loader or device is missing).
	Reason string `json:"reason,omitempty"`
}

func (a *app) checkCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "check FILE.pte",
		Short: "does this binary carry every backend and kernel a .pte needs? (exit 0 only if so)",
		Long: `List every backend and kernel a program needs and whether this binary carries it: the
check the runtime makes at load, without loading. Exit status 0 only when everything is
present, 1 when something is missing (each missing need is marked MISSING).`,
		Example:           "  etgo check testdata/zoo/split_delegation/xnnpack.pte",
		Args:              fileArgs("FILE.pte"),
		ValidArgsFunction: completeFiles("pte"),
	}
	asJSON := c.Flags().Bool("json", false, "print the needs as JSON (schema: docs/cli-json.md)")
	return a.command(c, func(_ *cobra.Command, args []string) error {
		path := args[0]
		f, err := pte.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		reg, err := newRegistry(1)
		if err != nil {
			return err
		}
		r := checkResult{SchemaVersion: checkSchema, File: path, Needs: []checkNeed{}}
		for _, b := range f.RequiredBackends() {
			be, ok := reg.Backend(b)
			n := checkNeed{Kind: "backend", Name: b, Present: ok && be.IsAvailable()}
			if ok && !n.Present {
				n.Reason = "registered, but unavailable on this machine"
				if e, ok := be.(executor.AvailabilityExplainer); ok {
					if why := e.Unavailable(); why != nil {
						n.Reason = "registered, but " + why.Error()
					}
				}
			}
			r.Needs = append(r.Needs, n)
		}
		for _, op := range f.RequiredOperators() {
			_, ok := reg.Kernel(op)
			r.Needs = append(r.Needs, checkNeed{Kind: "kernel", Name: op, Present: ok})
		}
		ext := f.ExternalTensors()
		for _, method := range slices.Sorted(maps.Keys(ext)) { // a map: sorted, so the output is stable
			for _, n := range ext[method] {
				// External .ptd data is not supported yet: always missing.
				r.Needs = append(r.Needs, checkNeed{Kind: "data", Name: n, Method: method})
			}
		}
		for _, n := range r.Needs {
			if !n.Present {
				r.Missing++
			}
		}
		r.OK = r.Missing == 0
		if *asJSON {
			if err := writeJSON(a.stdout, r); err != nil {
				return err
			}
		} else {
			printCheck(a, r)
		}
		if r.Missing > 0 {
			return fmt.Errorf("%w: %d of its needs are missing", errMissing, r.Missing)
		}
		return nil
	})
}

func printCheck(a *app, r checkResult) {
	fmt.Fprintf(a.stdout, "%s needs:\n", r.File)
	for _, n := range r.Needs {
		mark := "ok     "
		if !n.Present {
			mark = "MISSING"
		}
		if n.Kind == "data" {
			fmt.Fprintf(a.stdout, "  %s data     %s (method %s: external .ptd data is not supported yet)\n", mark, n.Name, n.Method)
			continue
		}
		if n.Reason != "" {
			fmt.Fprintf(a.stdout, "  %s %-8s %s (%s)\n", mark, n.Kind, n.Name, n.Reason)
			continue
		}
		fmt.Fprintf(a.stdout, "  %s %-8s %s\n", mark, n.Kind, n.Name)
	}
	if r.OK {
		fmt.Fprintln(a.stdout, "everything is present")
	}
}
