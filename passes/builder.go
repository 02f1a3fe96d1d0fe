package passes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/etgo/etgo/ir"
)

// Builder writes the nodes a decomposition puts in place of one node: each Call inserts a node
// before it, with the result's dtype and sizes inferred as torch's meta functions would
// (InferMeta). The first error sticks: a decomposition calls on and checks Err once, as
// torch's traced Python reads.
type Builder struct {
	g        *ir.Graph
	at       *ir.Node
	st       *strides
	err      error
	inserted map[*ir.Node]bool
	syms     map[symKey]*ir.Value
	fresh    map[string]bool // the unbacked symbols this decomposition's results introduced
}

func newBuilder(g *ir.Graph, at *ir.Node, st *strides) *Builder {
	return &Builder{g: g, at: at, st: st, inserted: map[*ir.Node]bool{}}
}

// Err is the first error of any call.
func (b *Builder) Err() error { return b.err }

// Fail records an error (the first one sticks) and returns nil, for use as a value.
func (b *Builder) Fail(format string, args ...any) *ir.Value {
	if b.err == nil {
		b.err = fmt.Errorf(format, args...)
	}
	return nil
}

// Call inserts target(args) before the decomposed node and returns its single result.
func (b *Builder) Call(target string, args ...ir.Arg) *ir.Value {
	outs := b.CallN(target, args...)
	if b.err != nil {
		return nil
	}
	if len(outs) != 1 {
		return b.Fail("%s returns %d results, not one", target, len(outs))
	}
	return outs[0]
}

// CallN inserts target(args) and returns all its results.
func (b *Builder) CallN(target string, args ...ir.Arg) []*ir.Value {
	if b.err != nil {
		return nil
	}
	for _, a := range args {
		for _, v := range a.Values {
			if v == nil && a.Kind == ir.ArgTensor {
				b.Fail("%s: argument %s is missing", target, a.Name)
				return nil
			}
		}
	}
	node := &ir.Node{Target: target, Args: args, StackTrace: b.at.StackTrace, ModuleStack: b.at.ModuleStack}
	metas, err := InferMeta(node)
	if err != nil {
		b.Fail("%w", err)
		return nil
	}
	if len(metas) == 0 {
		b.Fail("%s returns no results here (an empty split or unbind)", target)
		return nil
	}
	b.bindUnbacked(metas)
	base := b.at.Name + "_" + opBase(target)
	node.Outputs = make([]*ir.Value, len(metas))
	for i, m := range metas {
		v := b.g.NewValue(base, m, node)
		if m == nil {
			v.Kind = ir.SymIntValue
			v.Sym = symResult(node)
		}
		node.Outputs[i] = v
	}
	node.Name = node.Outputs[0].Name
	node.ListOutput = listResult[target]
	b.g.InsertBefore(b.at, node)
	b.inserted[node] = true
	return node.Outputs
}

// listResult are the operators that return a list of tensors (split, unbind): their outputs
// are the list's items.
var listResult = map[string]bool{
	"aten.split_with_sizes.default": true, "aten.split.Tensor": true, "aten.unbind.int": true,
	"aten.split_with_sizes_copy.default": true, "aten.split_copy.Tensor": true, "aten.unbind_copy.int": true,
}

// opBase names a node after its operator, as torch.fx does ("aten.mul.Tensor" → "mul").
func opBase(target string) string {
	parts := strings.Split(target, ".")
	if len(parts) >= 2 {
		return parts[len(parts)-2]
	}
	return target
}

// Replace makes every reader of the decomposed node's result read v instead and removes the
// node. v must have the dtype and static sizes torch recorded for the result.
func (b *Builder) Replace(vs ...*ir.Value) error {
	if b.err != nil {
		return b.err
	}
	n := b.at
	if len(vs) != len(n.Outputs) {
		return fmt.Errorf("decomposition gives %d results for %d", len(vs), len(n.Outputs))
	}
	// A single result computed here takes over the decomposed node's name, so reports and
	// later passes keep naming the value as the exported program did.
	var rename *ir.Value
	if len(vs) == 1 && vs[0] != nil && n.Outputs[0] != nil && vs[0].Producer != nil && b.inserted[vs[0].Producer] &&
		len(vs[0].Producer.Outputs) == 1 {
		rename = vs[0]
	}
	b.unifyUnbacked(n.Outputs, vs)
	for i, old := range n.Outputs {
		if old == nil {
			continue
		}
		v := vs[i]
		if v == nil {
			if used(b.g, old) {
				return fmt.Errorf("result %d is used but the decomposition does not compute it", i)
			}
			continue
		}
		if err := checkResultMeta(old, v); err != nil {
			return fmt.Errorf("result %d: %w", i, err)
		}
		b.g.ReplaceAllUses(old, v)
	}
	name := ""
	if n.Outputs[0] != nil {
		name = n.Outputs[0].Name
	}
	b.g.RemoveNodes(map[*ir.Node]bool{n: true})
	if rename != nil {
		return b.g.Rename(rename, name)
	}
	return nil
}

// sameMeta checks that a decomposition's result matches what torch recorded for the node.
func checkResultMeta(want, got *ir.Value) error {
	if want.Meta == nil || got.Meta == nil {
		return nil
	}
	if want.Meta.DType != got.Meta.DType || len(want.Meta.Sizes) != len(got.Meta.Sizes) {
		return fmt.Errorf("etgo's decomposition computes %s where torch recorded %s", got.Meta, want.Meta)
	}
	for i, d := range want.Meta.Sizes {
		if g := got.Meta.Sizes[i]; d.IsStatic() && g.IsStatic() && d.Size != g.Size {
			return fmt.Errorf("etgo's decomposition computes %s where torch recorded %s", got.Meta, want.Meta)
		}
	}
	return nil
}

func used(g *ir.Graph, v *ir.Value) bool {
	if g.IsGraphOutput(v) {
		return true
	}
	for _, n := range g.Nodes {
		for _, a := range n.Args {
			if slices.Contains(a.Values, v) {
				return true
			}
		}
	}
	return false
}

// Argument constructors, named as in the operator schema.

// T is a tensor argument.
func T(name string, v *ir.Value) ir.Arg {
	return ir.Arg{Name: name, Kind: ir.ArgTensor, Values: []*ir.Value{v}}
}

// Ts is a list of tensors.
func Ts(name string, vs ...*ir.Value) ir.Arg {
	return ir.Arg{Name: name, Kind: ir.ArgTensors, Values: vs}
}

// OptTs is a list of optional tensors (nil for None).
func OptTs(name string, vs ...*ir.Value) ir.Arg {
	return ir.Arg{Name: name, Kind: ir.ArgOptionalTensors, Values: vs}
}

// I is an int.
func I(name string, k int64) ir.Arg { return ir.Arg{Name: name, Kind: ir.ArgInt, Int: k} }

// Is is a list of ints.
func Is(name string, ks ...int64) ir.Arg {
	if ks == nil {
		ks = []int64{}
	}
	return ir.Arg{Name: name, Kind: ir.ArgInts, Ints: ks}
}

// F is a float.
func F(name string, f float64) ir.Arg { return ir.Arg{Name: name, Kind: ir.ArgFloat, Float: f} }

// Fs is a list of floats.
func Fs(name string, fs ...float64) ir.Arg { return ir.Arg{Name: name, Kind: ir.ArgFloats, Floats: fs} }

// Bo is a bool.
func Bo(name string, b bool) ir.Arg { return ir.Arg{Name: name, Kind: ir.ArgBool, Bool: b} }

// None is an absent optional argument.
func None(name string) ir.Arg { return ir.Arg{Name: name, Kind: ir.ArgNone} }

// Dt is a dtype (ScalarType).
func Dt(name string, d ir.DType) ir.Arg {
	return ir.Arg{Name: name, Kind: ir.ArgScalarType, Int: int64(d), KwargOnly: true}
}

// S is a string.
func S(name, s string) ir.Arg { return ir.Arg{Name: name, Kind: ir.ArgString, Str: s} }

// Renamed is a copy of a with another schema name.
func Renamed(a ir.Arg, name string) ir.Arg {
	a.Name = name
	a.Values = slices.Clone(a.Values)
	return a
}

// Scalar is a number argument: an int when the float is integral and isInt, else a float.
func Scalar(name string, f float64, isInt bool) ir.Arg {
	if isInt {
		return I(name, int64(f))
	}
	return F(name, f)
}

// ArgOr returns n's argument name (renamed to as), or def when n does not give it.
func ArgOr(n *ir.Node, name string, def ir.Arg) ir.Arg {
	if a := n.Arg(name); a != nil {
		c := *a
		c.Name = def.Name
		return c
	}
	return def
}
