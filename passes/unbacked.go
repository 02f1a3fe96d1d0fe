package passes

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/etgo/etgo/ir"
)

// Data-dependent (unbacked) sizes: the number of rows nonzero returns, the length of
// masked_select's result. torch names each with a fresh symbol u0, u1, … whose range
// (range_constraints) bounds it, binds it once with sym_size right after the node that
// produces it, and checks the range there with _assert_scalar (insert_deferred_runtime_asserts).

// freshUnbacked marks a dim a meta function cannot know: Builder.CallN gives it a new symbol
// of the graph, with Size as its upper bound (< 0: none).
const freshUnbacked = "?unbacked"

var unbackedSymbol = regexp.MustCompile(`^u[0-9]+$`)

// IsUnbacked reports whether a dim is a data-dependent size.
func IsUnbacked(d ir.Dim) bool { return unbackedSymbol.MatchString(d.Symbol) }

// newUnbacked registers the next free unbacked symbol of g with range [0, upper]: after every
// one the ranges or any size of the graph mention.
func newUnbacked(g *ir.Graph, upper int64) string {
	next := 0
	see := func(s string) {
		if unbackedSymbol.MatchString(s) {
			if k, err := strconv.Atoi(s[1:]); err == nil && k >= next && k < 1<<30 {
				next = k + 1
			}
		}
	}
	for s := range g.Ranges {
		see(s)
	}
	for _, n := range g.Nodes {
		for _, o := range n.Outputs {
			if o == nil {
				continue
			}
			see(o.Sym.Symbol)
			if o.Meta != nil {
				for _, d := range o.Meta.Sizes {
					see(d.Symbol)
				}
			}
		}
	}
	sym := fmt.Sprintf("u%d", next)
	g.Ranges[sym] = ir.Range{Min: 0, Max: max(upper, -1)}
	return sym
}

// bindUnbacked gives the fresh dims a meta function returned their symbols.
func (b *Builder) bindUnbacked(metas []*ir.TensorMeta) {
	for _, m := range metas {
		if m == nil {
			continue
		}
		for i, d := range m.Sizes {
			if d.Symbol == freshUnbacked {
				sym := newUnbacked(b.g, d.Size)
				if b.fresh == nil {
					b.fresh = map[string]bool{}
				}
				b.fresh[sym] = true
				m.Sizes[i] = ir.Dim{Symbol: sym}
			}
		}
	}
}

// unifyUnbacked renames the fresh symbols of a decomposition's results to the ones torch
// recorded for the decomposed node (torch's retrace renames its new unbacked symbols back to
// the exported ones the same way), so that the readers of the result, sized with the
// recorded symbols, agree with it.
func (b *Builder) unifyUnbacked(want, got []*ir.Value) {
	if len(b.fresh) == 0 {
		return
	}
	rename := map[string]string{}
	for i, w := range want {
		if w == nil || i >= len(got) || got[i] == nil || w.Meta == nil || got[i].Meta == nil ||
			len(w.Meta.Sizes) != len(got[i].Meta.Sizes) {
			continue
		}
		for j, d := range got[i].Meta.Sizes {
			if r := w.Meta.Sizes[j]; b.fresh[d.Symbol] && !r.IsStatic() && !b.fresh[r.Symbol] {
				rename[d.Symbol] = r.Symbol
			}
		}
	}
	if len(rename) == 0 {
		return
	}
	for n := range b.inserted {
		for _, o := range n.Outputs {
			if o == nil {
				continue
			}
			if r, ok := rename[o.Sym.Symbol]; ok {
				o.Sym.Symbol = r
			}
			if o.Meta == nil {
				continue
			}
			for k, d := range o.Meta.Sizes {
				if r, ok := rename[d.Symbol]; ok {
					o.Meta.Sizes[k].Symbol = r
				}
			}
		}
	}
	for s := range rename {
		delete(b.g.Ranges, s)
		delete(b.fresh, s)
	}
}

// inferNonzero: nonzero's result has one row per nonzero element, a count only the data
// knows: [u, rank] with u in [0, numel] (0 rows when the input is statically empty, as
// torch's meta function returns).
func inferNonzero(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	numel := int64(1)
	for _, d := range m.Sizes {
		if !d.IsStatic() {
			numel = -1
			break
		}
		numel *= d.Size
	}
	rows := ir.Dim{Symbol: freshUnbacked, Size: numel}
	if numel == 0 {
		rows = ir.Dim{Size: 0}
	}
	return one(metaOf(ir.Int64, []ir.Dim{rows, {Size: int64(len(m.Sizes))}})), nil
}

// assertMessage is the message insert_deferred_runtime_asserts writes for a range check.
var assertMessage = regexp.MustCompile(`^(Runtime assertion failed for expression .* on node ')([A-Za-z_][A-Za-z0-9_]*)('.*)$`)

// BindUnbackedSizes places the reading of each unbacked size and its range checks as torch's
// retrace in to_edge does: the sym_size right after the node that produces the size (reading
// that node's result, even when a decomposition now computes the exported tensor later), the
// comparisons and _assert_scalar nodes that check it right after, and each assertion's message
// naming the comparison under the fresh name the retrace gave it (torch keeps the exported
// expression, "u0 >= 0", and names the node it inserted: "ge_1" beside the traced "ge").
type BindUnbackedSizes struct{}

func (BindUnbackedSizes) Name() string { return "BindUnbackedSizes" }

func (BindUnbackedSizes) Run(g *ir.Graph) (string, error) {
	moved := 0
	for _, n := range slices.Clone(g.Nodes) {
		if n.Target != "aten.sym_size.int" || len(n.Outputs) != 1 || n.Outputs[0] == nil || !IsUnbacked(n.Outputs[0].Sym) {
			continue
		}
		sym := n.Outputs[0].Sym.Symbol
		src, dim := firstWithDim(g, sym)
		if src == nil || src.Producer == nil {
			continue
		}
		if self := n.Arg("self"); self != nil && len(self.Values) == 1 {
			self.Values[0] = src
		}
		if a := n.Arg("dim"); a != nil {
			a.Kind, a.Int = ir.ArgInt, int64(dim)
		}
		// The chain: the sym_size, comparisons of it with numbers, and the assertions on those.
		chain := []*ir.Node{n}
		reads := map[*ir.Value]bool{n.Outputs[0]: true}
		for _, m := range g.Nodes {
			if m == n || !rangeCheck(m, reads) {
				continue
			}
			chain = append(chain, m)
			if m.Outputs[0] != nil {
				reads[m.Outputs[0]] = true
			}
		}
		in := map[*ir.Node]bool{}
		for _, c := range chain {
			in[c] = true
		}
		rest := slices.DeleteFunc(slices.Clone(g.Nodes), func(m *ir.Node) bool { return in[m] })
		at := slices.Index(rest, src.Producer) + 1
		if at == 0 {
			continue
		}
		order := slices.Insert(rest, at, chain...)
		if !slices.Equal(order, g.Nodes) {
			g.Nodes = order
			moved++
		}
	}
	renamed := renameAssertNodes(g)
	if moved == 0 && renamed == 0 {
		return "", nil
	}
	return fmt.Sprintf("bound %d unbacked size(s) where they arise, renamed %d assertion message(s)", moved, renamed), nil
}

// firstWithDim finds the first tensor (in graph order) with a dim that is exactly sym.
func firstWithDim(g *ir.Graph, sym string) (*ir.Value, int) {
	for _, n := range g.Nodes {
		for _, o := range n.Outputs {
			if o == nil || o.Meta == nil {
				continue
			}
			for d, s := range o.Meta.Sizes {
				if s.Symbol == sym {
					return o, d
				}
			}
		}
	}
	return nil, 0
}

// rangeCheck reports a comparison of a value in reads with a number, or an assertion of one.
func rangeCheck(m *ir.Node, reads map[*ir.Value]bool) bool {
	switch m.Target {
	case "_operator.ge", "_operator.le", "_operator.gt", "_operator.lt", "_operator.eq":
		if len(m.Args) != 2 || len(m.Outputs) != 1 {
			return false
		}
		a, b := m.Args[0], m.Args[1]
		return a.Kind == ir.ArgSymInt && len(a.Values) == 1 && reads[a.Values[0]] && b.Kind == ir.ArgInt
	case "aten._assert_scalar.default":
		a := m.Arg("self")
		return a != nil && a.Kind == ir.ArgSymInt && len(a.Values) == 1 && reads[a.Values[0]]
	}
	return false
}

// renameAssertNodes rewrites "on node 'ge'" in each range check's message to the name FX gave
// the comparison the retrace inserted: the base name with the next suffix after every node
// already named so (ge, ge_1 → ge_2).
func renameAssertNodes(g *ir.Graph) int {
	taken := map[string]int{}
	for _, n := range g.Nodes {
		taken[nameBase(n.Name)]++
	}
	next := map[string]int{}
	renamed := 0
	for _, n := range g.Nodes {
		a := n.Arg("assert_msg")
		self := n.Arg("self")
		if n.Target != "aten._assert_scalar.default" || a == nil || a.Kind != ir.ArgString || self == nil ||
			len(self.Values) != 1 || self.Values[0] == nil || self.Values[0].Producer == nil {
			continue
		}
		m := assertMessage.FindStringSubmatch(a.Str)
		cond := self.Values[0].Producer
		if m == nil || m[2] != cond.Name {
			continue
		}
		base := nameBase(cond.Name)
		name := fmt.Sprintf("%s_%d", base, taken[base]+next[base])
		next[base]++
		a.Str = m[1] + name + m[3]
		renamed++
	}
	return renamed
}

// nameBase strips FX's numeric suffix: "ge_2" → "ge".
func nameBase(name string) string {
	if i := strings.LastIndexByte(name, '_'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i]
		}
	}
	return name
}
