// Package irtext reads a small text form of ir graphs, so tests can state graphs as data. One
// statement per line:
//
//	in x f32[1,3,8,8]           a user input (dims may be symbols: f32[s0,16])
//	param w f32[8,3,3,3]        a parameter
//	buffer m f32[8]             a buffer (a running mean)
//	const c f32[8]              a lifted tensor constant
//	sym s0                      a symbolic int input
//	y = aten.relu.default(self=x) -> f32[1,3,8,8]
//	y, m, v = aten._native_batch_norm_legit_no_training.default(input=x, …) -> f32[…], f32[0], f32[0]
//	out y                       a graph output
//
// Argument values: a value name, $name (a symbolic int), [a, b] of value names, [1, 2] of ints
// (a $name inside is a symbolic int), [1.5, 2.0] of floats, an int, a float (with a dot), true/false, none, mf:N (a memory format),
// dt:N (a scalar type), "text" (a string); names starting with "kw_" are keyword-only (the prefix is dropped).
// Dtypes: f32, f16, bf16, f64, i8, u8, i32, i64, bool.
package irtext

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/etgo/etgo/ir"
)

var dtypes = map[string]ir.DType{"f32": ir.Float32, "f16": ir.Float16, "bf16": ir.BFloat16, "f64": ir.Float64,
	"i8": ir.Int8, "u8": ir.Uint8, "i32": ir.Int32, "i64": ir.Int64, "bool": ir.Bool, "c64": ir.ComplexFloat, "c128": ir.ComplexDouble}

// Error is a statement irtext cannot read: its line, counted from 1, and the statement.
type Error struct {
	Line int
	Text string
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("irtext: line %d %q: %v", e.Line, e.Text, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// Parse reads a graph. Leading and trailing blank lines are dropped before lines are counted.
func Parse(src string) (*ir.Graph, error) {
	return ParseLines(strings.Split(strings.TrimSpace(src), "\n"))
}

// ParseLines reads a graph stated one statement per line; a failure is an *Error whose Line
// indexes lines from 1, so a caller that took the lines from a larger file can say where in it
// the bad statement is. Blank lines are skipped.
func ParseLines(lines []string) (*ir.Graph, error) {
	g := ir.NewGraph()
	for i, line := range lines {
		if err := statement(g, strings.TrimSpace(line)); err != nil {
			return nil, &Error{Line: i + 1, Text: strings.TrimSpace(line), Err: err}
		}
	}
	return g, nil
}

// WithData gives every parameter of g deterministic float32 data, element i being 0.01·(i+1),
// for tests of rewrites that read weights; it returns g.
func WithData(g *ir.Graph) *ir.Graph {
	for _, in := range g.Inputs {
		if in.Kind != ir.Parameter {
			continue
		}
		n := 1
		for _, d := range in.Value.Meta.Sizes {
			n *= int(d.Size)
		}
		b := make([]byte, 4*n)
		for i := range n {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(0.01*float32(i+1)))
		}
		g.Constants[in.Target] = &ir.Constant{Meta: *in.Value.Meta, Data: b}
	}
	return g
}

// MustParse is Parse for tests' fixed graphs; it panics on a malformed one.
func MustParse(src string) *ir.Graph {
	g, err := Parse(src)
	if err != nil {
		panic(err)
	}
	return g
}

func meta(s string) (*ir.TensorMeta, error) {
	s = strings.TrimSpace(s)
	dt, dims, ok := strings.Cut(strings.TrimSuffix(s, "]"), "[")
	d, known := dtypes[dt]
	if !ok || !known {
		return nil, fmt.Errorf("bad tensor type %q", s)
	}
	m := &ir.TensorMeta{DType: d}
	for _, x := range strings.Split(dims, ",") {
		if x = strings.TrimSpace(x); x == "" {
			continue
		}
		if n, err := strconv.ParseInt(x, 10, 64); err == nil {
			m.Sizes = append(m.Sizes, ir.Dim{Size: n})
		} else {
			m.Sizes = append(m.Sizes, ir.Dim{Size: 4, Symbol: x})
		}
	}
	return m, nil
}

func statement(g *ir.Graph, line string) error {
	val := func(name string) (*ir.Value, error) {
		v, ok := g.Value(name)
		if !ok {
			return nil, fmt.Errorf("unknown value %q", name)
		}
		return v, nil
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return nil
	}
	switch f[0] {
	case "sym", "out":
		if len(f) != 2 {
			return fmt.Errorf("want: %s NAME", f[0])
		}
	}
	switch f[0] {
	case "in", "param", "buffer", "const":
		if len(f) != 3 {
			return fmt.Errorf("want: %s NAME TYPE", f[0])
		}
		m, err := meta(f[2])
		if err != nil {
			return err
		}
		v := &ir.Value{Name: f[1], Meta: m}
		if err := g.AddValue(v); err != nil {
			return err
		}
		kind := map[string]ir.InputKind{"in": ir.UserInput, "param": ir.Parameter, "buffer": ir.Buffer, "const": ir.TensorConstant}[f[0]]
		g.Inputs = append(g.Inputs, ir.InputSpec{Kind: kind, Value: v, Target: f[1], Persistent: kind == ir.Buffer})
		return nil
	case "sym":
		v := &ir.Value{Name: f[1], Kind: ir.SymIntValue}
		if err := g.AddValue(v); err != nil {
			return err
		}
		g.Inputs = append(g.Inputs, ir.InputSpec{Kind: ir.UserInput, Value: v})
		return nil
	case "out":
		v, err := val(f[1])
		if err != nil {
			return err
		}
		g.Outputs = append(g.Outputs, ir.OutputSpec{Value: v})
		return nil
	}
	lhs, rhs, ok := strings.Cut(line, " = ")
	call, types, ok2 := strings.Cut(rhs, " -> ")
	target, args, ok3 := strings.Cut(strings.TrimSuffix(call, ")"), "(")
	if !ok || !ok2 || !ok3 {
		return fmt.Errorf("want: NAME[, NAME…] = TARGET(ARGS) -> TYPE[, TYPE…]")
	}
	names := strings.Split(lhs, ",")
	n := &ir.Node{Name: strings.TrimSpace(names[0]), Target: target}
	for _, a := range splitArgs(args) {
		arg, err := argument(a, val)
		if err != nil {
			return err
		}
		n.Args = append(n.Args, arg)
	}
	ts := strings.Split(types, ", ")
	if len(ts) != len(names) {
		return fmt.Errorf("%d results but %d types", len(names), len(ts))
	}
	for i, name := range names {
		m, err := meta(ts[i])
		if err != nil {
			return err
		}
		v := &ir.Value{Name: strings.TrimSpace(name), Meta: m, Producer: n}
		if err := g.AddValue(v); err != nil {
			return err
		}
		n.Outputs = append(n.Outputs, v)
	}
	g.Nodes = append(g.Nodes, n)
	return nil
}

func argument(a string, val func(string) (*ir.Value, error)) (ir.Arg, error) {
	name, v, ok := strings.Cut(a, "=")
	if !ok {
		return ir.Arg{}, fmt.Errorf("argument %q is not NAME=VALUE", a)
	}
	arg := ir.Arg{Name: strings.TrimPrefix(name, "kw_"), KwargOnly: strings.HasPrefix(name, "kw_")}
	var err error
	switch {
	case v == "none":
		arg.Kind = ir.ArgNone
	case v == "true" || v == "false":
		arg.Kind, arg.Bool = ir.ArgBool, v == "true"
	case len(v) >= 2 && strings.HasPrefix(v, `"`) && strings.HasSuffix(v, `"`):
		arg.Kind, arg.Str = ir.ArgString, v[1:len(v)-1]
	case strings.HasPrefix(v, "mf:"):
		arg.Kind = ir.ArgMemoryFormat
		arg.Int, err = strconv.ParseInt(v[3:], 10, 64)
	case strings.HasPrefix(v, "dt:"):
		arg.Kind = ir.ArgScalarType
		arg.Int, err = strconv.ParseInt(v[3:], 10, 64)
	case strings.HasPrefix(v, "["):
		arg.Kind = ir.ArgInts
		for _, it := range strings.Split(strings.Trim(v, "[]"), ",") {
			it = strings.TrimSpace(it)
			if it == "" {
				continue
			}
			if n, perr := strconv.ParseInt(it, 10, 64); perr == nil {
				arg.Ints = append(arg.Ints, n)
				arg.Values = append(arg.Values, nil)
				continue
			}
			if x, ferr := strconv.ParseFloat(it, 64); ferr == nil {
				arg.Kind = ir.ArgFloats
				arg.Floats = append(arg.Floats, x)
				continue
			}
			sym := strings.HasPrefix(it, "$")
			x, verr := val(strings.TrimPrefix(it, "$"))
			if verr != nil {
				return arg, verr
			}
			if sym {
				arg.Kind = ir.ArgSymInts
				arg.Ints = append(arg.Ints, 0)
			} else {
				arg.Kind = ir.ArgTensors
			}
			arg.Values = append(arg.Values, x)
		}
		if arg.Kind == ir.ArgInts || arg.Kind == ir.ArgFloats {
			arg.Values = nil
		}
		if arg.Kind == ir.ArgFloats && len(arg.Ints) > 0 {
			return arg, fmt.Errorf("list %s mixes ints and floats (write 2.0 for a float)", v)
		}
	case strings.HasPrefix(v, "$"):
		x, verr := val(v[1:])
		if verr != nil {
			return arg, verr
		}
		arg.Kind, arg.Values = ir.ArgSymInt, []*ir.Value{x}
	default:
		if n, perr := strconv.ParseInt(v, 10, 64); perr == nil {
			arg.Kind, arg.Int = ir.ArgInt, n
		} else if x, ferr := strconv.ParseFloat(v, 64); ferr == nil {
			arg.Kind, arg.Float = ir.ArgFloat, x
		} else {
			x, verr := val(v)
			if verr != nil {
				return arg, verr
			}
			arg.Kind, arg.Values = ir.ArgTensor, []*ir.Value{x}
		}
	}
	return arg, err
}

// splitArgs splits "a=x, b=[1, 2]" at top-level commas.
func splitArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}
