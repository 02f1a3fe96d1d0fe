package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/etgo/etgo/npy"
)

func init() {
	commands["npy"] = command{
		summary: "summarise .npy tensors: dtype, shape, range, mean, first values",
		usage:   "npy [--values N] FILE.npy...",
		run:     runNpy,
	}
}

func runNpy(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("npy", stderr)
	show := fs.Int("values", 8, "how many leading values to print (-1 for all)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errUsage
	}
	failed := 0
	for _, path := range fs.Args() {
		a, err := npy.Load(path)
		if err != nil {
			fmt.Fprintf(stderr, "etgo npy: %v\n", err)
			failed++
			continue
		}
		fmt.Fprintf(stdout, "%s: %s\n", path, describeArray(a, *show))
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files could not be read", failed, fs.NArg())
	}
	return nil
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
	lo, hi, sum, nan := math.Inf(1), math.Inf(-1), 0.0, 0
	for _, x := range v {
		if math.IsNaN(x) {
			nan++
			continue
		}
		lo, hi, sum = min(lo, x), max(hi, x), sum+x
	}
	if nan < len(v) {
		fmt.Fprintf(&sb, " min %.6g max %.6g mean %.6g", lo, hi, sum/float64(len(v)-nan))
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
