package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Padding: pad's modes (ATen's pad_enum), and reflection and replication padding as torch's
// decomposition table gathers them, one index per padded dim.

func init() {
	registerRule(padMode, "aten.pad.default")
	registerRule(reflectOrReplicate(true), "aten.reflection_pad1d.default", "aten.reflection_pad2d.default", "aten.reflection_pad3d.default")
	registerRule(reflectOrReplicate(false), "aten.replication_pad1d.default", "aten.replication_pad2d.default", "aten.replication_pad3d.default")
	registerRule(unsafeIndex, "aten._unsafe_index.Tensor")
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
