package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/etgo/etgo/npy"
)

// npySchema is the version of etgo npy --json's document (docs/cli-json.md).
const npySchema = 1

// npyResult is etgo npy --json: one entry per file, in the order given.
type npyResult struct {
	SchemaVersion int       `json:"schema_version"`
	Files         []npyFile `json:"files"`
}

// npyFile is one file's summary, or the error that kept it from being read.
type npyFile struct {
	File  string       `json:"file"`
	Error string       `json:"error,omitempty"`
	DType string       `json:"dtype,omitempty"`
	Shape *[]int       `json:"shape,omitempty"` // a pointer: a 0-d array's [] is not omitted
	Stats *tensorStats `json:"stats,omitempty"`
	// Values are the leading values (--values of them); a pointer, like Shape.
	Values *[]json.RawMessage `json:"values,omitempty"`
}

func (a *app) npyCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "npy FILE.npy...",
		Short: "summarise .npy tensors: dtype, shape, range, mean, first values",
		Long: `Summarise NumPy .npy files: dtype, shape, minimum, maximum and mean (over the values that
are not NaN, with the NaN count), and the first values. Every file is read even when one
fails; the exit status is 1 if any could not be read.`,
		Example: `  etgo npy testdata/zoo/split_delegation/expected/xnnpack/output_0.npy
  etgo npy --values -1 --json a.npy b.npy`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("missing FILE.npy (one or more)")
			}
			return nil
		},
		ValidArgsFunction: completeFiles("npy"),
	}
	show := c.Flags().Int("values", 8, "print the first `N` values (-1: all)")
	asJSON := c.Flags().Bool("json", false, "print the summaries as JSON (schema: docs/cli-json.md)")
	return a.command(c, func(_ *cobra.Command, args []string) error {
		if err := atLeast("values", *show, -1); err != nil {
			return err
		}
		r := npyResult{SchemaVersion: npySchema, Files: []npyFile{}}
		failed := 0
		for _, path := range args {
			arr, err := npy.Load(path)
			if err != nil {
				// Said on stderr under --json too, so the failure is seen wherever stdout goes.
				fmt.Fprintf(a.stderr, "etgo npy: %v\n", err)
				r.Files = append(r.Files, npyFile{File: path, Error: err.Error()})
				failed++
				continue
			}
			if *asJSON {
				r.Files = append(r.Files, describeJSON(path, arr, *show))
				continue
			}
			fmt.Fprintf(a.stdout, "%s: %s\n", path, describeArray(arr, *show))
		}
		if *asJSON {
			if err := writeJSON(a.stdout, r); err != nil {
				return err
			}
		}
		if failed > 0 {
			return fmt.Errorf("%d of %d files could not be read", failed, len(args))
		}
		return nil
	})
}

// describeJSON is describeArray's facts as JSON.
func describeJSON(path string, arr *npy.Array, show int) npyFile {
	shape := append([]int{}, arr.Shape...)
	f := npyFile{File: path, DType: arr.DType.String(), Shape: &shape}
	s, values, err := arrayFacts(arr, show)
	if err != nil {
		f.Error = err.Error()
		return f
	}
	f.Stats, f.Values = &s, &values
	return f
}

// describeArray renders "float32[1,3,8,8] min … max … mean … [v0 v1 …]".
func describeArray(a *npy.Array, show int) string {
	dims := make([]string, len(a.Shape))
	for i, d := range a.Shape {
		dims[i] = fmt.Sprint(d)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s[%s]", a.DType, strings.Join(dims, ","))
	v, err := a.Float64s()
	if err != nil {
		return sb.String() + " (" + err.Error() + ")"
	}
	if len(v) == 0 {
		return sb.String() + " (empty)"
	}
	lo, hi, mean, nan := stats(v)
	if nan < len(v) {
		fmt.Fprintf(&sb, " min %.6g max %.6g mean %.6g", lo, hi, mean)
	}
	if nan > 0 {
		fmt.Fprintf(&sb, " nan %d", nan)
	}
	if show < 0 || show > len(v) {
		show = len(v)
	}
	if show > 0 {
		sb.WriteString(" [")
		for i, x := range v[:show] {
			if i > 0 {
				sb.WriteByte(' ')
			}
			fmt.Fprintf(&sb, "%.6g", x)
		}
		if show < len(v) {
			sb.WriteString(" …")
		}
		sb.WriteByte(']')
	}
	return sb.String()
}
