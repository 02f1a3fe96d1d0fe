// Package human formats the quantities etgo's reports show people: byte sizes, FLOP counts and
// shares, the same way in the CLI and in the HTML report.
package human

import "fmt"

// Bytes is a size in B, KiB or MiB.
func Bytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// FLOPs is a FLOP count with an SI prefix ("19.1k", "1.14M", "4.09G").
func FLOPs(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2fG", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.2fM", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// Percent is part of whole as a percentage with three significant digits; a remainder is never
// rounded away (">99.9%", not "100%", when part < whole).
func Percent(part, whole int64) string {
	if whole == 0 {
		return "0%"
	}
	p := 100 * float64(part) / float64(whole)
	if p > 99.9 && part < whole {
		return ">99.9%"
	}
	return fmt.Sprintf("%.3g%%", p)
}
