package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"bytes"
	"path/filepath"

	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/devtools/etdump"
	"github.com/etgo/etgo/devtools/htmlreport"
	"github.com/etgo/etgo/devtools/inspect"
	"github.com/etgo/etgo/internal/fileio"
	"github.com/etgo/etgo/pte"
)

// inspectSchema is the version of etgo inspect --json's two documents, a program's report
// (docs/inspect.md) and an ETDump's summary (docs/cli-json.md).
const inspectSchema = 1

// inspectJSON is inspect --json of a program: the report, with the fields every etgo JSON
// document starts with. (The report's fields are promoted: one flat object, as before.)
type inspectJSON struct {
	SchemaVersion int    `json:"schema_version"`
	Format        string `json:"format"` // "pte"; an ETDump's summary says "etdump"
	*inspect.Report
}

func (a *app) inspectCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "inspect FILE.pte|FILE.etdp",
		Short: "show what a .pte holds: methods, instructions, operators, delegates, segments, requirements",
		Long: `Show what a program holds and needs: its methods and signatures, instructions by kind, the
operators left to portable kernels, each delegate blob (with the XNNPACK nodes inside), the
constants, the segments, and the backends and kernels a runtime must carry to load it.
Foreign files are named (a bundled program, a .ptd, a .pt2 to lower first). Of an ETDump
(.etdp, as etgo run --etdump and the official runtime write), its blocks and each event's count
and time.`,
		Example: `  etgo inspect testdata/zoo/split_delegation/xnnpack.pte
  etgo inspect testdata/zoo/split_delegation/xnnpack.pte --json
  etgo bench m.pte --etdump run.etdp && etgo inspect m.pte --html m.html --etdump run.etdp`,
		Args:              fileArgs("FILE.pte"),
		ValidArgsFunction: completeFiles("pte", "etdp", "bpte", "ptd"),
	}
	asJSON := c.Flags().Bool("json", false, "print the report as JSON (schema: docs/inspect.md)")
	htmlPath := c.Flags().String("html", "", "also draw a method of the .pte as one self-contained page `OUT.html`: its instructions, delegates and, with --etdump, where the time goes")
	profilePath := c.Flags().String("etdump", "", "with --html: an ETDump `RUN.etdp` of runs of the method (etgo bench --etdump, or the official runtime's)")
	method := c.Flags().String("method", "forward", "with --html: the `METHOD` to draw")
	_ = c.MarkFlagFilename("html", "html")
	_ = c.MarkFlagFilename("etdump", "etdp")
	return a.command(c, func(_ *cobra.Command, args []string) error {
		path := args[0]
		if *profilePath != "" && *htmlPath == "" {
			return usageErrorf("--etdump goes with --html (the page shows the profile)")
		}
		if err := checkOutputs([]string{path, *profilePath}, output{"--html " + *htmlPath, *htmlPath}); err != nil {
			return err
		}
		if isETDump(path) {
			d, err := etdump.ReadFile(path)
			if err != nil {
				return err
			}
			if *asJSON {
				return writeJSON(a.stdout, etdumpReport{SchemaVersion: inspectSchema, Format: "etdump", File: path,
					Version: d.Version, Blocks: len(d.Runs), Events: d.Stats()})
			}
			fmt.Fprintf(a.stdout, "%s: ", path)
			d.WriteSummary(a.stdout)
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
		if *htmlPath != "" {
			rep := htmlreport.ProgramReport{Title: filepath.Base(path), File: f, Method: *method, Describe: all.Registry().BlobDescribers()}
			if *profilePath != "" {
				if rep.Profile, err = etdump.ReadFile(*profilePath); err != nil {
					return err
				}
			}
			var b bytes.Buffer
			if err := htmlreport.WriteProgram(&b, rep); err != nil {
				return err
			}
			if err := os.WriteFile(*htmlPath, b.Bytes(), 0o644); err != nil {
				return err
			}
		}
		reg := all.Registry()
		r := inspect.Summarize(f, path, reg.BlobDescribers())
		r.NameBackends(func(id string) string {
			if b := reg.ByID(id); b != nil {
				return b.Name
			}
			return ""
		})
		if *asJSON {
			return writeJSON(a.stdout, inspectJSON{SchemaVersion: inspectSchema, Format: "pte", Report: r})
		}
		r.WriteText(a.stdout)
		return nil
	})
}

// isZipArchive reports whether a regular file starts with a zip local-file header.
func isZipArchive(path string) bool {
	head, ok := fileHead(path, 4)
	return ok && string(head) == "PK\x03\x04"
}

// fileHead reads the first n bytes of a regular file; a FIFO or device is never opened (opening
// a FIFO would wait for a writer), and a shorter file gives false.
func fileHead(path string, n int) ([]byte, bool) {
	f, _, err := fileio.OpenRegular(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	head := make([]byte, n)
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, false
	}
	return head, true
}

// etdumpReport is inspect --json of an ETDump.
type etdumpReport struct {
	SchemaVersion int                 `json:"schema_version"`
	Format        string              `json:"format"` // "etdump"
	File          string              `json:"file"`
	Version       uint32              `json:"version"`
	Blocks        int                 `json:"blocks"`
	Events        []etdump.EventStats `json:"events"`
}

// isETDump reports whether path is a regular file that starts as an ETDump does (a size
// prefix, then the "ED00" identifier). Anything else (a FIFO or a device, which must not be
// waited on or read without bound) is left to pte.Open to refuse.
func isETDump(path string) bool {
	head, ok := fileHead(path, 12)
	return ok && string(head[8:12]) == etdump.Identifier
}
