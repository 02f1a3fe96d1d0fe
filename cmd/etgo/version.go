package main

import (
	"fmt"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/etgo/etgo/pte"
)

// executorchVersion is the ExecuTorch release etgo is held to: the oracle's fixtures were made
// with it (TestVersion checks the zoo's manifest says so), and where the two disagree on the same
// input, etgo is wrong.
const executorchVersion = "1.5.1"

// versionSchema is the version of etgo version --json's document (docs/cli-json.md).
const versionSchema = 1

// versionResult is etgo version --json.
type versionResult struct {
	SchemaVersion int    `json:"schema_version"`
	Etgo          string `json:"etgo"`   // the module version: a tag, a pseudo-version, or (devel) in a clone
	Module        string `json:"module"` // the main module's path
	Go            string `json:"go"`     // the toolchain that built the binary
	Platform      string `json:"platform"`
	ExecuTorch    string `json:"executorch"`   // the ExecuTorch release etgo targets
	ProgramFormat string `json:"pte_format"`   // the .pte flatbuffer identifier read and written
	Revision      string `json:"vcs_revision"` // the commit, when the build recorded it ("" otherwise)
	Time          string `json:"vcs_time"`
	Modified      bool   `json:"vcs_modified"`
}

func buildVersion() versionResult {
	v := versionResult{SchemaVersion: versionSchema, Etgo: "(unknown)", Module: "github.com/etgo/etgo", Go: goruntime.Version(),
		Platform: goruntime.GOOS + "/" + goruntime.GOARCH, ExecuTorch: executorchVersion, ProgramFormat: pte.FileIdentifier}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if info.Main.Path != "" {
		v.Module = info.Main.Path
	}
	if info.Main.Version != "" {
		v.Etgo = info.Main.Version
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// versionString is etgo version's text, which etgo --version prints too; once per process, as
// the root command that carries it is built for every command line.
var versionString = sync.OnceValue(func() string {
	v := buildVersion()
	var sb strings.Builder
	fmt.Fprintf(&sb, "etgo %s (%s)\n", v.Etgo, v.Module)
	if v.Revision != "" {
		dirty := ""
		if v.Modified {
			dirty = ", modified"
		}
		fmt.Fprintf(&sb, "commit %s (%s%s)\n", v.Revision, v.Time, dirty)
	}
	fmt.Fprintf(&sb, "built with %s for %s\n", v.Go, v.Platform)
	fmt.Fprintf(&sb, "targets ExecuTorch %s (.pte format %s)\n", v.ExecuTorch, v.ProgramFormat)
	return sb.String()
})

func (a *app) versionCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "version",
		Short: "print etgo's version, the Go that built it, and the ExecuTorch release it targets",
		Long: `Print etgo's module version (a release tag, a pseudo-version, or "(devel)" for a build in
a clone), the commit when the build recorded it, the Go toolchain and platform, and the
ExecuTorch release whose file format and behaviour etgo follows.`,
		Args:              fileArgs(),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	asJSON := c.Flags().Bool("json", false, "print the version as JSON (schema: docs/cli-json.md)")
	return a.command(c, func(*cobra.Command, []string) error {
		if *asJSON {
			return writeJSON(a.stdout, buildVersion())
		}
		_, err := fmt.Fprint(a.stdout, versionString())
		return err
	})
}
