package emit

import (
	"strings"
	"testing"

	"github.com/etgo/etgo/ir"
)

func TestBoundOf(t *testing.T) {
	ranges := map[string]ir.Range{"s0": {Min: 1, Max: 8}, "s77": {Min: 2, Max: 10}, "u": {Min: 0, Max: -1}}
	for _, tc := range []struct {
		expr string
		want int64
		err  string
	}{
		{"s0", 8, ""},
		{"2*s0 + 1", 17, ""},
		{"s0*s77", 80, ""},
		{"Symbol('s77', positive=True, integer=True)", 10, ""},
		{"Mul(Integer(2), Symbol('s77', positive=True, integer=True))", 20, ""},
		{"Add(FloorDiv(Symbol('s77', positive=True, integer=True), Integer(2)), Integer(1))", 6, ""},
		{"Add(Symbol('s0', positive=True, integer=True), Integer(-1))", 7, ""}, // a constant shift keeps it monotone
		{"Max(Integer(3), Mul(Integer(2), Symbol('s0', positive=True, integer=True)))", 16, ""},
		{"Pow(Symbol('s0', positive=True, integer=True), Integer(2))", 64, ""},
		{"Add(Symbol('s77', positive=True, integer=True), Mul(Integer(-1), Symbol('s0', positive=True, integer=True)))", 0, "can shrink"},
		{"Mod(Symbol('s0', positive=True, integer=True), Integer(3))", 0, "function Mod is not supported"},
		{"FloorDiv(Integer(8), Symbol('s0', positive=True, integer=True))", 0, "only a positive constant divisor"},
		{"u*2", 0, "no upper bound"},
		{"s9", 0, "symbol s9 has no range"},
		{"Mul(Integer(4611686018427387904), Integer(4))", 0, "overflows"},
		{"Add(s0", 0, "expected"},
		{"s0 s0", 0, "unexpected"},
		{strings.Repeat("Add(", 100) + "s0" + strings.Repeat(")", 100), 0, "nested too deeply"},
	} {
		got, err := boundOf(tc.expr, ranges)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %d, %v; want error %q", tc.expr, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %d, %v; want %d", tc.expr, got, err, tc.want)
		}
	}
}

// FuzzBoundOf: a symbolic size comes from an untrusted .pt2; any string must give a bound or an
// error, never a panic, and an accepted bound is at least the value at the symbols' minima.
func FuzzBoundOf(f *testing.F) {
	for _, s := range []string{"s0", "2*s0 + 1", "Mul(Integer(2), Symbol('s0', positive=True, integer=True))",
		"Add(FloorDiv(Symbol('s0', positive=True, integer=True), Integer(2)), Integer(1))", "Pow(s0, Integer(3))", "Max(s0, Integer(-5))"} {
		f.Add(s)
	}
	ranges := map[string]ir.Range{"s0": {Min: 1, Max: 8}}
	f.Fuzz(func(t *testing.T, expr string) {
		hi, err := boundOf(expr, ranges)
		if err != nil {
			return
		}
		lo, err := boundOf(expr, map[string]ir.Range{"s0": {Min: 1, Max: 1}})
		if err == nil && lo > hi {
			t.Errorf("%q: bound %d below its value %d at the minimum", expr, hi, lo)
		}
	})
}
