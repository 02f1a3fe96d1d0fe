package portable

import (
	"fmt"
	"slices"
	"strings"

	"github.com/etgo/etgo/executor"
)

//go:generate go run ../../internal/cmd/kernelcoverage -o ../../docs/kernels.md

// coverageColumns are the dtypes the coverage table shows.
var coverageColumns = []executor.ScalarType{executor.Float32, executor.Float64, executor.Float16, executor.BFloat16,
	executor.Uint8, executor.Int8, executor.Int16, executor.Int32, executor.Int64, executor.Bool}

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
		fmt.Fprintf(&sb, " %s |", executor.DTypeName(c))
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
