package portable

import (
	"fmt"
	"slices"
	"strings"

	"github.com/etgo/etgo/runtime"
)

//go:generate go run ../../internal/cmd/kernelcoverage -o ../../docs/kernels.md

// coverageColumns are the dtypes the coverage table shows.
var coverageColumns = []runtime.ScalarType{runtime.Float32, runtime.Float64, runtime.Float16, runtime.BFloat16,
	runtime.Uint8, runtime.Int8, runtime.Int16, runtime.Int32, runtime.Int64, runtime.Bool}

// CoverageMarkdown renders the operator × dtype table of the registered portable kernels
// (docs/kernels.md is this text; go generate ./kernels/portable rewrites it).
func CoverageMarkdown() string {
	var sb strings.Builder
	ks := Kernels()
	sb.WriteString("# Portable kernels\n\n")
	sb.WriteString("Generated from the registry by `go generate ./kernels/portable`; do not edit.\n")
	fmt.Fprintf(&sb, "%d operators. A mark means the kernel accepts that dtype for its first tensor argument;\n", len(ks))
	sb.WriteString("method load refuses other dtypes by name.\n\n| operator |")
	for _, c := range coverageColumns {
		fmt.Fprintf(&sb, " %s |", runtime.DTypeName(c))
	}
	sb.WriteString("\n|---|")
	sb.WriteString(strings.Repeat("---|", len(coverageColumns)))
	sb.WriteString("\n")
	for _, k := range ks {
		fmt.Fprintf(&sb, "| `%s` |", k.Name)
		for _, c := range coverageColumns {
			mark := ""
			if len(k.DTypes) == 0 || slices.Contains(k.DTypes, c) {
				mark = "✓"
			}
			fmt.Fprintf(&sb, " %s |", mark)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}
