package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Decompositions whose results have data-dependent sizes (see unbacked.go).

func init() {
	registerInfer(inferNonzero, "aten.nonzero.default")
	registerInfer(inferRepeatInterleaveTensor, "aten.repeat_interleave.Tensor")
	registerRule(argwhere, "aten.argwhere.default")
	registerRule(nonzeroNumpy, "aten.nonzero_numpy.default")
	registerRule(repeatInterleaveTensor, "aten.repeat_interleave.self_Tensor")
}

// argwhere(x) = x.nonzero() (ATen's composite).
func argwhere(b *Builder, n *ir.Node) error {
	x := self(b, n)
	return b.Replace(b.Call("aten.nonzero.default", T("self", x)))
}

// nonzero_numpy(x) = x.nonzero().unbind(1), a 0-d x unsqueezed first (ATen's composite).
func nonzeroNumpy(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	if len(x.Meta.Sizes) == 0 {
		x = b.Call("aten.unsqueeze.default", T("self", x), I("dim", 0))
	}
	nz := b.Call("aten.nonzero.default", T("self", x))
	return b.Replace(b.CallN("aten.unbind.int", T("self", nz), I("dim", 1))...)
}

// repeat_interleave(x, repeats: Tensor, dim, output_size) (ATen's composite): over the
// flattened x when dim is None; a single repeat count is broadcast along dim; the result is
// x.index_select(dim, repeat_interleave(repeats)), whose length only the counts know.
func repeatInterleaveTensor(b *Builder, n *ir.Node) error {
	x := self(b, n)
	reps := n.TensorArg("repeats")
	if b.Err() != nil {
		return b.Err()
	}
	if reps == nil || reps.Meta == nil {
		return fmt.Errorf("%s: repeats is not a tensor", n.Target)
	}
	var d int
	if a := n.Arg("dim"); a != nil && a.Kind == ir.ArgInt {
		var err error
		if d, err = normDim(a.Int, len(x.Meta.Sizes)); err != nil {
			return err
		}
	} else {
		if !x.Meta.IsStatic() {
			return fmt.Errorf("%s: flattening a tensor of symbolic size", n.Target)
		}
		x = flattenAll(b, x)
	}
	if b.Err() != nil {
		return b.Err()
	}
	size := x.Meta.Sizes[d]
	switch r := reps.Meta.Sizes; {
	case len(r) == 0 || (len(r) == 1 && r[0].IsStatic() && r[0].Size == 1):
		if !size.IsStatic() {
			return fmt.Errorf("%s: broadcasting repeats along a symbolic dim", n.Target)
		}
		reps = b.Call("aten.reshape.default", T("self", reps), Is("shape", 1))
		reps = b.Call("aten.expand.default", T("self", reps), Is("size", size.Size))
	case len(r) == 1:
		if r[0] != size {
			return fmt.Errorf("%s: repeats must have the same size as input along dim", n.Target)
		}
	default:
		return fmt.Errorf("%s: repeats must be 0-dim or 1-dim tensor", n.Target)
	}
	out := ArgOr(n, "output_size", None("output_size"))
	idx := b.Call("aten.repeat_interleave.Tensor", T("repeats", reps), out)
	return b.Replace(b.Call("aten.index_select.default", T("self", x), I("dim", int64(d)), T("index", idx)))
}

// inferRepeatInterleaveTensor: repeat_interleave(repeats) has sum(repeats) elements, given
// as output_size or known only from the data (the fake-tensor rule's fresh size, ≥ 0).
func inferRepeatInterleaveTensor(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "repeats")
	if err != nil {
		return nil, err
	}
	if len(m.Sizes) != 1 {
		return nil, fmt.Errorf("%s: repeats must be 1-d", n.Target)
	}
	size := ir.Dim{Symbol: freshUnbacked, Size: -1}
	if a := n.Arg("output_size"); a != nil {
		if d, ok := symOperand(*a); ok {
			size = d
		}
	}
	return one(metaOf(m.DType, []ir.Dim{size})), nil
}
