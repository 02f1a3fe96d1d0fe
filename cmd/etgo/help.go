package main

import (
	"fmt"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// helpWidth is where flag descriptions wrap in the help.
const helpWidth = 100

// registerHelpFuncs adds flagUsages to cobra's template functions (a process-wide map, so once).
var registerHelpFuncs = sync.OnceFunc(func() { cobra.AddTemplateFunc("flagUsages", flagUsages) })

// setUsageTemplate makes the help list flags with flagUsages instead of pflag's FlagUsages,
// which writes every boolean flag as "--json[=true|false]". The rest of cobra's template is kept.
func setUsageTemplate(root *cobra.Command) {
	registerHelpFuncs()
	t := root.UsageTemplate()
	for _, set := range []string{"LocalFlags", "InheritedFlags"} {
		t = strings.Replace(t, "{{."+set+".FlagUsages | trimTrailingWhitespaces}}", "{{flagUsages ."+set+"}}", 1)
	}
	root.SetUsageTemplate(t)
}

// flagUsages lists a flag set as pflag does (shorthand, name, the value's name from the
// `backquoted` word of the description, the default) but writes booleans as plain switches and
// wraps descriptions at helpWidth, aligned.
func flagUsages(fs *pflag.FlagSet) string {
	type row struct{ left, usage string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		left := "      --" + f.Name
		if f.Shorthand != "" {
			left = "  -" + f.Shorthand + ", --" + f.Name
		}
		name, usage := pflag.UnquoteUsage(f)
		if f.Value.Type() != "bool" && name != "" {
			left += " " + name
		}
		switch f.DefValue {
		case "", "0", "false", "[]":
		default:
			def := f.DefValue
			if f.Value.Type() == "string" {
				def = fmt.Sprintf("%q", def)
			}
			usage += " (default " + def + ")"
		}
		rows = append(rows, row{left, usage})
		width = max(width, len(left))
	})
	var sb strings.Builder
	for i, r := range rows {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(r.left)
		indent := width + 3
		sb.WriteString(strings.Repeat(" ", indent-len(r.left)))
		col := indent
		for j, w := range strings.Fields(r.usage) {
			if j > 0 {
				if col+1+len(w) > helpWidth {
					sb.WriteString("\n" + strings.Repeat(" ", indent))
					col = indent
				} else {
					sb.WriteByte(' ')
					col++
				}
			}
			sb.WriteString(w)
			col += len(w)
		}
	}
	return sb.String()
}
