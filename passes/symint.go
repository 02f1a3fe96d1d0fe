package passes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/etgo/etgo/ir"
)

// Symbolic-size arithmetic that decompositions emit (sym_size, and _operator.mul on its
// results, as ATen's composites multiply SymInts): the values carry the size they hold, written
// as sympy prints it, so later results are sized exactly as torch recorded them.

func init() {
	registerInfer(inferSymSize, "_operator.mul", "_operator.add", "_operator.sub", "_operator.floordiv")
}

// symOperand is the size a symbolic-int argument (or a plain int) stands for.
func symOperand(a ir.Arg) (ir.Dim, bool) {
	switch a.Kind {
	case ir.ArgInt:
		return ir.Dim{Size: a.Int}, true
	case ir.ArgSymInt:
		if len(a.Values) == 1 && a.Values[0] != nil {
			return symDim(a.Values[0]), true
		}
	}
	return ir.Dim{}, false
}

// symResult is the size a symbolic-int node computes.
func symResult(n *ir.Node) ir.Dim {
	switch n.Target {
	case "aten.sym_size.int":
		if in := n.TensorArg("self"); in != nil && in.Meta != nil {
			if d, err := normDim(n.IntArg("dim", 0), len(in.Meta.Sizes)); err == nil && d < len(in.Meta.Sizes) {
				return in.Meta.Sizes[d]
			}
		}
	case "_operator.mul":
		if len(n.Args) == 2 {
			a, okA := symOperand(n.Args[0])
			b, okB := symOperand(n.Args[1])
			if okA && okB {
				return mulDims(a, b)
			}
		}
	}
	return ir.Dim{}
}

// mulDims multiplies two sizes, writing a symbolic product as sympy does: the integer
// coefficient first, then the factors in order ("3*s31", "s0*s1").
func mulDims(a, b ir.Dim) ir.Dim {
	if a.IsStatic() && b.IsStatic() {
		return ir.Dim{Size: a.Size * b.Size}
	}
	coef := int64(1)
	var factors []string
	for _, d := range []ir.Dim{a, b} {
		if d.IsStatic() {
			coef *= d.Size
			continue
		}
		expr := d.Symbol
		if c, rest, ok := splitCoefficient(expr); ok {
			coef *= c
			expr = rest
		}
		if strings.ContainsAny(expr, "+-") {
			expr = "(" + expr + ")"
		}
		factors = append(factors, strings.Split(expr, "*")...)
	}
	slices.Sort(factors)
	expr := strings.Join(factors, "*")
	if coef != 1 {
		expr = fmt.Sprintf("%d*%s", coef, expr)
	}
	return ir.Dim{Symbol: expr, Size: a.Size * b.Size}
}

// splitCoefficient splits "3*s31" into 3 and "s31".
func splitCoefficient(expr string) (int64, string, bool) {
	head, rest, ok := strings.Cut(expr, "*")
	if !ok {
		return 0, "", false
	}
	var c int64
	if _, err := fmt.Sscanf(head, "%d", &c); err != nil || fmt.Sprint(c) != head {
		return 0, "", false
	}
	return c, rest, true
}

// SymSize returns the symbolic size of x's dim d as a value: a sym_size node, made once per
// decomposition.
func (b *Builder) SymSize(x *ir.Value, d int) *ir.Value {
	if b.syms == nil {
		b.syms = map[symKey]*ir.Value{}
	}
	k := symKey{x, d}
	if v, ok := b.syms[k]; ok {
		return v
	}
	if v := b.inputSymSize(x.Meta.Sizes[d]); v != nil {
		b.syms[k] = v
		return v
	}
	v := b.Call("aten.sym_size.int", T("self", x), I("dim", int64(d)))
	b.syms[k] = v
	return v
}

// inputSymSize finds or makes the sym_size of a graph input's dim that holds dim's symbol.
// torch's tracer binds each symbol to the first input dim that has it, reading it at the top
// of the graph, and every later tensor of that size reuses it.
func (b *Builder) inputSymSize(dim ir.Dim) *ir.Value {
	if dim.IsStatic() || strings.ContainsAny(dim.Symbol, "*+-/() ") {
		return nil
	}
	for _, in := range b.g.Inputs {
		if in.Value == nil || in.Value.Meta == nil {
			continue
		}
		for d, s := range in.Value.Meta.Sizes {
			if s.Symbol != dim.Symbol {
				continue
			}
			top := 0
			for i, n := range b.g.Nodes {
				if n.Target != "aten.sym_size.int" {
					top = i
					break
				}
				if n.TensorArg("self") == in.Value && n.IntArg("dim", -1) == int64(d) && len(n.Outputs) == 1 {
					return n.Outputs[0]
				}
				top = i + 1
			}
			node := &ir.Node{Target: "aten.sym_size.int", Args: []ir.Arg{T("self", in.Value), I("dim", int64(d))}}
			v := b.g.NewValue("sym_size", nil, node)
			v.Kind, v.Sym, node.Name, node.Outputs = ir.SymIntValue, s, v.Name, []*ir.Value{v}
			b.g.Nodes = slices.Insert(b.g.Nodes, top, node)
			return v
		}
	}
	return nil
}

type symKey struct {
	v *ir.Value
	d int
}

// SizeArg is one entry of a size list: a static size or a symbolic value.
type SizeArg struct {
	Size int64
	Sym  *ir.Value
}

// Sizes builds a size-list argument from entries.
func Sizes(name string, entries ...SizeArg) ir.Arg {
	a := ir.Arg{Name: name, Kind: ir.ArgInts}
	for _, e := range entries {
		a.Ints = append(a.Ints, e.Size)
		a.Values = append(a.Values, e.Sym)
		if e.Sym != nil {
			a.Kind = ir.ArgSymInts
		}
	}
	if a.Kind == ir.ArgInts {
		a.Values = nil
	}
	return a
}

// DimSize is x's dim d as a size entry: static, or its sym_size.
func (b *Builder) DimSize(x *ir.Value, d int) SizeArg {
	dim := x.Meta.Sizes[d]
	if dim.IsStatic() {
		return SizeArg{Size: dim.Size}
	}
	return SizeArg{Size: dim.Size, Sym: b.SymSize(x, d)}
}

// MulSize multiplies two size entries as SymInt arithmetic does: constants fold, a product
// with 1 is the other factor, anything symbolic is an _operator.mul node.
func (b *Builder) MulSize(x, y SizeArg) SizeArg {
	switch {
	case x.Sym == nil && y.Sym == nil:
		return SizeArg{Size: x.Size * y.Size}
	case x.Sym == nil && x.Size == 1:
		return y
	case y.Sym == nil && y.Size == 1:
		return x
	}
	arg := func(s SizeArg) ir.Arg {
		if s.Sym != nil {
			return ir.Arg{Name: "", Kind: ir.ArgSymInt, Values: []*ir.Value{s.Sym}}
		}
		return I("", s.Size)
	}
	a, c := arg(x), arg(y)
	a.Name, c.Name = "a", "b"
	v := b.Call("_operator.mul", a, c)
	if v == nil {
		return SizeArg{}
	}
	return SizeArg{Size: x.Size * y.Size, Sym: v}
}
