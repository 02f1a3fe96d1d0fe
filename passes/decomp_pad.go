package passes

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// Padding: pad's modes (ATen's pad_enum), and reflection and replication padding as torch's
// decomposition table gathers them, one index per padded dim.

func init() {
	registerRule(padMode, "aten.pad.default")
	registerRule(reflectOrReplicate(true), "aten.reflection_pad1d.default", "aten.reflection_pad2d.default", "aten.reflection_pad3d.default")
	registerRule(reflectOrReplicate(false), "aten.replication_pad1d.default", "aten.replication_pad2d.default", "aten.replication_pad3d.default")
	registerRule(unsafeIndex, "aten._unsafe_index.Tensor")
	registerRule(padEnum, "aten._pad_enum.default")
	registerRule(func(b *Builder, n *ir.Node) error {
		return b.Replace(padCircular(b, self(b, n), n.IntsArg("pad", nil)))
	}, "aten._pad_circular.default")
}

// _pad_enum(x, pad, mode, value) is pad with ATen's padding_mode enum (reflect, replicate,
// circular, constant).
func padEnum(b *Builder, n *ir.Node) error {
	modes := []string{"reflect", "replicate", "circular", "constant"}
	m := n.IntArg("mode", -1)
	if m < 0 || int(m) >= len(modes) {
		return fmt.Errorf("_pad_enum mode %d", m)
	}
	args := []ir.Arg{T("self", self(b, n)), ArgOr(n, "pad", Is("pad")), S("mode", modes[m])}
	if a := n.Arg("value"); a != nil {
		args = append(args, Renamed(*a, "value"))
	}
	return b.Replace(b.Call("aten.pad.default", args...))
}

// pad(x, pad, mode, value): constant is constant_pad_nd (value 0.0 when none is given);
// reflect and replicate the N-d reflection/replication pad for N = len(pad)/2.
func padMode(b *Builder, n *ir.Node) error {
	x := self(b, n)
	pad := n.IntsArg("pad", nil)
	if b.Err() != nil {
		return b.Err()
	}
	if pad == nil || len(pad)%2 != 0 {
		return fmt.Errorf("pad: padding must be an even-length list of ints")
	}
	mode := "constant"
	if a := n.Arg("mode"); a != nil && a.Kind == ir.ArgString {
		mode = a.Str
	}
	switch mode {
	case "constant":
		value := F("value", 0)
		if a := n.Arg("value"); a != nil && a.Kind != ir.ArgNone {
			value = Renamed(*a, "value")
		}
		return b.Replace(b.Call("aten.constant_pad_nd.default", T("self", x), Is("pad", pad...), value))
	case "reflect", "replicate":
		dims := len(pad) / 2
		if dims < 1 || dims > 3 {
			return fmt.Errorf("%s padding of %d dims", mode, dims)
		}
		op := map[string]string{"reflect": "reflection", "replicate": "replication"}[mode]
		return b.Replace(b.Call(fmt.Sprintf("aten.%s_pad%dd.default", op, dims), T("self", x), Is("padding", pad...)))
	case "circular":
		return b.Replace(padCircular(b, x, pad))
	}
	return fmt.Errorf("pad mode %q is not decomposed yet", mode)
}

// reflectOrReplicate gathers x along each padded dim with an index computed from an arange:
// reflection maps i to m-1-|m-1-|i||, replication clamps it to [0, m-1].
func reflectOrReplicate(reflect bool) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		padding := n.IntsArg("padding", nil)
		if b.Err() != nil {
			return b.Err()
		}
		dims := len(padding) / 2
		rank := len(x.Meta.Sizes)
		if dims == 0 || len(padding)%2 != 0 || (rank != dims+1 && rank != dims+2) {
			return fmt.Errorf("%s of a %d-d input with padding %v", n.Target, rank, padding)
		}
		nc := rank - dims
		result := x
		for i := 0; i < dims; i++ {
			left, right := padding[2*(dims-1-i)], padding[2*(dims-1-i)+1]
			m := x.Meta.Sizes[nc+i]
			if !m.IsStatic() {
				return fmt.Errorf("%s of a symbolic dim", n.Target)
			}
			idx := b.Call("aten.arange.start", I("start", -left), I("end", m.Size+right), deviceCPU(),
				ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
			if reflect {
				inner := b.Call("aten.rsub.Scalar", T("self", b.Call("aten.abs.default", T("self", idx))), I("other", m.Size-1))
				idx = b.Call("aten.rsub.Scalar", T("self", b.Call("aten.abs.default", T("self", inner))), I("other", m.Size-1))
			} else {
				idx = b.Call("aten.clamp.default", T("self", idx), I("min", 0), I("max", m.Size-1))
			}
			indices := make([]*ir.Value, rank)
			indices[nc+i] = idx
			result = b.Call("aten._unsafe_index.Tensor", T("self", result), OptTs("indices", indices...))
		}
		return b.Replace(result)
	}
}

// _unsafe_index is index without bounds checks: index in Edge.
func unsafeIndex(b *Builder, n *ir.Node) error {
	x := self(b, n)
	idx := n.Arg("indices")
	if idx == nil {
		return fmt.Errorf("_unsafe_index without indices")
	}
	return b.Replace(b.Call("aten.index.Tensor", T("self", x), Renamed(*idx, "indices")))
}

// padCircular is ATen's _pad_circular as functionalization traces it: an empty result, the input
// copied into its middle, then per padded dim (last first) the left pad copied from the right end
// of the middle and the right pad from its left end. Each copy_ into a slice of the result is
// slice (a fresh chain from the result for every copy), copy, and slice_scatter back up the chain.
func padCircular(b *Builder, x *ir.Value, pad []int64) *ir.Value {
	if b.Err() != nil {
		return nil
	}
	if !x.Meta.IsStatic() {
		return b.Fail("circular padding of a symbolic shape (%s)", x.Meta)
	}
	in := sizesOf(x.Meta)
	k := len(pad) / 2
	lead := len(in) - k
	if lead != 1 && lead != 2 {
		return b.Fail("circular padding of %d dims needs a %d-d or %d-d input, not %d-d", k, k+1, k+2, len(in))
	}
	out := slices.Clone(in)
	for i := 0; i < k; i++ {
		l, r := pad[2*(k-1-i)], pad[2*(k-1-i)+1]
		out[lead+i] = in[lead+i] + l + r
		if l > in[lead+i] || r > in[lead+i] || out[lead+i] < 0 {
			return b.Fail("circular padding %v of %v wraps more than once", pad, in)
		}
	}
	res := b.Call("aten.empty.memory_format", append([]ir.Arg{Is("size", out...)}, creationKwargs(&ir.Node{}, x.Meta.DType)...)...)

	// A slice step of one view chain: dim, start, end (full-range slices are not traced).
	type cut struct{ dim, start, end int64 }
	slice := func(v *ir.Value, c cut) *ir.Value {
		return b.Call("aten.slice.Tensor", T("self", v), I("dim", c.dim), I("start", c.start), I("end", c.end), I("step", 1))
	}
	trivial := func(v *ir.Value, c cut) bool { return c.start == 0 && c.end >= v.Meta.Sizes[c.dim].Size }
	// copyInto writes src[srcChain] into res[chain] and returns the new res: the two view
	// chains step by step (as _pad_circular slices them together), the copy, then the chain
	// re-applied to res once and scattered back from the innermost view.
	copyInto := func(res *ir.Value, chain []cut, src *ir.Value, srcChain []cut) *ir.Value {
		var cuts []cut
		v, w := res, src
		for i := range max(len(chain), len(srcChain)) {
			if i < len(chain) && !trivial(res, chain[i]) {
				cuts = append(cuts, chain[i])
				v = slice(v, chain[i])
			}
			if i < len(srcChain) && !trivial(src, srcChain[i]) {
				w = slice(w, srcChain[i])
			}
		}
		v = b.Call("aten.copy.default", T("self", v), T("src", w), Bo("non_blocking", false))
		bases := []*ir.Value{res}
		for i := 1; i < len(cuts); i++ {
			bases = append(bases, slice(bases[i-1], cuts[i-1]))
		}
		for i := len(cuts) - 1; i >= 0; i-- {
			v = b.Call("aten.slice_scatter.default", T("self", bases[i]), T("src", v), I("dim", cuts[i].dim),
				I("start", cuts[i].start), I("end", cuts[i].end), I("step", 1))
		}
		return v
	}
	var outChain, inChain []cut
	for i := 0; i < k; i++ {
		dim := int64(k - i + lead - 1)
		l, r := pad[2*i], pad[2*i+1]
		outChain = append(outChain, cut{dim, max(l, 0), out[dim] - max(r, 0)})
		inChain = append(inChain, cut{dim, max(-l, 0), in[dim] - max(-r, 0)})
	}
	res = copyInto(res, outChain, x, inChain)
	for i := 0; i < k; i++ {
		dim := int64(k - i + lead - 1)
		l, r := pad[2*i], pad[2*i+1]
		if l > 0 {
			res = copyInto(res, []cut{{dim, 0, l}}, res, []cut{{dim, out[dim] - l - max(r, 0), out[dim] - max(r, 0)}})
		}
		if r > 0 {
			res = copyInto(res, []cut{{dim, out[dim] - r, out[dim]}}, res, []cut{{dim, max(l, 0), max(l, 0) + r}})
		}
	}
	return res
}
