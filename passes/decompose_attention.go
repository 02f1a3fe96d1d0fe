package passes

import (
	"fmt"
	"math"
	"slices"

	"github.com/etgo/etgo/ir"
)

// Decompositions of the operators a transformer layer exports with.

// decomposeLayerNorm: layer_norm is native_layer_norm, whose first result is the output (the
// mean and rstd results are unused).
func decomposeLayerNorm(_ *ir.Graph, n *ir.Node, _ *strides) error {
	in, err := tensorIn(n, "input")
	if err != nil {
		return err
	}
	if _, err := result(n); err != nil {
		return err
	}
	shape := n.Arg("normalized_shape")
	if shape == nil || shape.Kind != ir.ArgInts {
		return fmt.Errorf("normalized_shape is not a list of ints")
	}
	opt := func(name string) ir.Arg {
		if a := n.Arg(name); a != nil {
			return *a
		}
		return ir.Arg{Name: name, Kind: ir.ArgNone}
	}
	eps := ir.Arg{Name: "eps", Kind: ir.ArgFloat, Float: 1e-5}
	if a := n.Arg("eps"); a != nil {
		eps = *a
	}
	n.Target = "aten.native_layer_norm.default"
	n.Args = []ir.Arg{tensorArgOf("input", in), *shape, opt("weight"), opt("bias"), eps}
	n.Outputs = append(n.Outputs, nil, nil)
	return nil
}

// decomposeChunk: chunk(self, chunks, dim) is split_with_sizes with ceil(size/chunks) per
// piece, the last one shorter.
func decomposeChunk(_ *ir.Graph, n *ir.Node, _ *strides) error {
	in, err := tensorIn(n, "self")
	if err != nil {
		return err
	}
	chunks := n.IntArg("chunks", 0)
	d, ok := norm(n.IntArg("dim", 0), len(in.Meta.Sizes))
	if chunks < 1 || !ok || !in.Meta.Sizes[d].IsStatic() {
		return fmt.Errorf("chunk of a symbolic or invalid dim, or %d chunks", chunks)
	}
	size := in.Meta.Sizes[d].Size
	piece := (size + chunks - 1) / chunks
	var sizes []int64
	for left := size; left > 0; left -= piece {
		sizes = append(sizes, min(piece, left))
	}
	if len(sizes) != len(n.Outputs) {
		return fmt.Errorf("chunk into %d pieces but %d results", len(sizes), len(n.Outputs))
	}
	n.Target = "aten.split_with_sizes.default"
	n.Args = []ir.Arg{tensorArgOf("self", in), {Name: "split_sizes", Kind: ir.ArgInts, Ints: sizes}, {Name: "dim", Kind: ir.ArgInt, Int: n.IntArg("dim", 0)}}
	return nil
}

// decomposeTranspose: transpose(dim0, dim1) is the permute swapping them.
func decomposeTranspose(_ *ir.Graph, n *ir.Node, _ *strides) error {
	in, err := tensorIn(n, "self")
	if err != nil {
		return err
	}
	r := len(in.Meta.Sizes)
	i, ok1 := norm(n.IntArg("dim0", 0), r)
	j, ok2 := norm(n.IntArg("dim1", 0), r)
	if !ok1 || !ok2 {
		return fmt.Errorf("dims out of range for rank %d", r)
	}
	dims := identity(r)
	dims[i], dims[j] = dims[j], dims[i]
	n.Target = "aten.permute.default"
	n.Args = []ir.Arg{tensorArgOf("self", in), {Name: "dims", Kind: ir.ArgInts, Ints: dims}}
	return nil
}

// decomposeSDPA is torch's math decomposition of scaled_dot_product_attention for 4-D inputs
// without dropout or grouped-query heads, node for node as to_edge leaves it: q and kᵀ each
// scaled by √scale, batched matmuls through no-op expands and 3-D views, the mask added to the
// scores (a float mask as is; a bool mask, or the causal one built from two aranges, as a 0/-inf
// where), a softmax whose all -inf rows become zeros (_safe_softmax), and the output laid out
// like the query (permute, contiguous copy, permute back).
func decomposeSDPA(g *ir.Graph, n *ir.Node, _ *strides) error {
	q, err := tensorIn(n, "query")
	if err != nil {
		return err
	}
	k, err := tensorIn(n, "key")
	if err != nil {
		return err
	}
	v, err := tensorIn(n, "value")
	if err != nil {
		return err
	}
	out, err := result(n)
	if err != nil {
		return err
	}
	var mask *ir.Value
	if a := n.Arg("attn_mask"); a != nil && a.Kind != ir.ArgNone {
		if mask, err = tensorIn(n, "attn_mask"); err != nil {
			return err
		}
	}
	if a := n.Arg("dropout_p"); a != nil && a.Float != 0 {
		return fmt.Errorf("attention with dropout is not decomposed yet")
	}
	causal := n.BoolArg("is_causal", false)
	if causal && mask != nil {
		return fmt.Errorf("attention with both a mask and is_causal (torch refuses it)")
	}
	if n.BoolArg("enable_gqa", false) {
		return fmt.Errorf("grouped-query attention is not decomposed yet")
	}
	for _, x := range []*ir.Value{q, k, v, out} {
		if len(x.Meta.Sizes) != 4 || !x.Meta.IsStatic() {
			return fmt.Errorf("attention on %s (%s): only static 4-D inputs are decomposed yet", x.Name, x.Meta)
		}
	}
	qs, ks, vs := sizesOf(q.Meta), sizesOf(k.Meta), sizesOf(v.Meta)
	b, h, l, e, s, ev := qs[0], qs[1], qs[2], qs[3], ks[2], vs[3]
	scale := 1 / math.Sqrt(float64(e))
	if a := n.Arg("scale"); a != nil && a.Kind == ir.ArgFloat {
		scale = a.Float
	}
	root := math.Sqrt(scale)
	dt := q.Meta.DType
	meta := func(t ir.DType, sizes ...int64) *ir.TensorMeta {
		m := &ir.TensorMeta{DType: t}
		for _, x := range sizes {
			m.Sizes = append(m.Sizes, ir.Dim{Size: x})
		}
		return m
	}
	ints := func(name string, xs ...int64) ir.Arg { return ir.Arg{Name: name, Kind: ir.ArgInts, Ints: xs} }
	op := func(base, target string, m *ir.TensorMeta, args ...ir.Arg) *ir.Value {
		return insertBefore(g, n, n.Name+"_"+base, target, m, args...)
	}
	scaled := func(x *ir.Value, sizes ...int64) *ir.Value {
		return op("mul", "aten.mul.Scalar", meta(dt, sizes...), tensorArgOf("self", x), ir.Arg{Name: "other", Kind: ir.ArgFloat, Float: root})
	}
	view := func(x *ir.Value, sizes ...int64) *ir.Value {
		return op("view", "aten.view.default", meta(dt, sizes...), tensorArgOf("self", x), ints("size", sizes...))
	}
	permute := func(x *ir.Value, dims []int64, sizes ...int64) *ir.Value {
		return op("permute", "aten.permute.default", meta(dt, sizes...), tensorArgOf("self", x), ints("dims", dims...))
	}

	// expand is the no-op broadcast torch's matmul inserts before each 3-D view (RemoveNoopExpandCopyPass
	// drops it again for XNNPACK; the portable program keeps it, as ExecuTorch's does).
	expand := func(x *ir.Value, sizes ...int64) *ir.Value {
		return op("expand", "aten.expand.default", meta(dt, sizes...), tensorArgOf("self", x), ints("size", sizes...))
	}
	// additive turns a bool mask (true = attend) into 0 where true and -inf where false.
	additive := func(m *ir.Value) *ir.Value {
		number := func(x float64) *ir.Value {
			return op("scalar_tensor", "aten.scalar_tensor.default", meta(dt), ir.Arg{Name: "s", Kind: ir.ArgFloat, Float: x},
				ir.Arg{Name: "dtype", Kind: ir.ArgScalarType, Int: int64(dt), KwargOnly: true})
		}
		negInf, zero := number(math.Inf(-1)), number(0)
		return op("where", "aten.where.self", &ir.TensorMeta{DType: dt, Sizes: m.Meta.Sizes},
			tensorArgOf("condition", m), tensorArgOf("self", zero), tensorArgOf("other", negInf))
	}
	if mask != nil && mask.Meta.DType == ir.Bool {
		mask = additive(mask)
	}
	qScaled := scaled(q, b, h, l, e)
	if causal {
		// tril(ones(L, S)) as torch spells it: j - i <= 0, and-ed with an all-true full.
		all := op("full", "aten.full.default", meta(ir.Bool, l, s), ints("size", l, s), ir.Arg{Name: "fill_value", Kind: ir.ArgBool, Bool: true},
			ir.Arg{Name: "dtype", Kind: ir.ArgScalarType, Int: int64(ir.Bool), KwargOnly: true})
		arange := func(end int64, dim int64, sizes ...int64) *ir.Value {
			r := op("arange", "aten.arange.start_step", meta(ir.Int64, end), ir.Arg{Name: "start", Kind: ir.ArgInt, Int: 0}, ir.Arg{Name: "end", Kind: ir.ArgInt, Int: end})
			return op("unsqueeze", "aten.unsqueeze.default", meta(ir.Int64, sizes...), tensorArgOf("self", r), ir.Arg{Name: "dim", Kind: ir.ArgInt, Int: dim})
		}
		cols, rows := arange(s, -2, 1, s), arange(l, -1, l, 1)
		diff := op("sub", "aten.sub.Tensor", meta(ir.Int64, l, s), tensorArgOf("self", cols), tensorArgOf("other", rows))
		below := op("le", "aten.le.Scalar", meta(ir.Bool, l, s), tensorArgOf("self", diff), ir.Arg{Name: "other", Kind: ir.ArgInt, Int: 0})
		mask = additive(op("logical_and", "aten.logical_and.default", meta(ir.Bool, l, s), tensorArgOf("self", below), tensorArgOf("other", all)))
	}
	kT := permute(k, []int64{0, 1, 3, 2}, b, h, e, s)
	kScaled := scaled(kT, b, h, e, s)
	scores := op("bmm", "aten.bmm.default", meta(dt, b*h, l, s), tensorArgOf("self", view(expand(qScaled, b, h, l, e), b*h, l, e)),
		tensorArgOf("mat2", view(expand(kScaled, b, h, e, s), b*h, e, s)))
	scores4 := view(scores, b, h, l, s)
	if mask != nil {
		scores4 = op("add", "aten.add.Tensor", meta(dt, b, h, l, s), tensorArgOf("self", scores4), tensorArgOf("other", mask))
	}
	probs := op("softmax", "aten._softmax.default", meta(dt, b, h, l, s), tensorArgOf("self", scores4), ir.Arg{Name: "dim", Kind: ir.ArgInt, Int: -1}, ir.Arg{Name: "half_to_float", Kind: ir.ArgBool})
	isInf := op("eq", "aten.eq.Scalar", meta(ir.Bool, b, h, l, s), tensorArgOf("self", scores4), ir.Arg{Name: "other", Kind: ir.ArgFloat, Float: math.Inf(-1)})
	finite := op("logical_not", "aten.logical_not.default", meta(ir.Bool, b, h, l, s), tensorArgOf("self", isInf))
	anyFinite := op("any", "aten.any.dim", meta(ir.Bool, b, h, l, 1), tensorArgOf("self", finite), ir.Arg{Name: "dim", Kind: ir.ArgInt, Int: -1}, ir.Arg{Name: "keepdim", Kind: ir.ArgBool, Bool: true})
	allInf := op("logical_not", "aten.logical_not.default", meta(ir.Bool, b, h, l, 1), tensorArgOf("self", anyFinite))
	zeros := op("full_like", "aten.full_like.default", meta(dt, b, h, l, s), tensorArgOf("self", probs), ir.Arg{Name: "fill_value", Kind: ir.ArgInt})
	safe := op("where", "aten.where.self", meta(dt, b, h, l, s), tensorArgOf("condition", allInf), tensorArgOf("self", zeros), tensorArgOf("other", probs))
	o := op("bmm", "aten.bmm.default", meta(dt, b*h, l, ev), tensorArgOf("self", view(expand(safe, b, h, l, s), b*h, l, s)),
		tensorArgOf("mat2", view(expand(v, b, h, s, ev), b*h, s, ev)))
	o4 := view(o, b, h, l, ev)
	lbh := permute(o4, []int64{2, 0, 1, 3}, l, b, h, ev)
	dense := op("clone", "dim_order_ops._clone_dim_order.default", meta(dt, l, b, h, ev), tensorArgOf("self", lbh), ir.Arg{Name: "dim_order", Kind: ir.ArgInts, Ints: identity(4), KwargOnly: true})
	// n itself becomes the final permute, so its result keeps its name and readers.
	n.Target = "aten.permute.default"
	n.Args = []ir.Arg{tensorArgOf("self", dense), ints("dims", 1, 2, 0, 3)}
	if got := sizesOf(out.Meta); !slices.Equal(got, []int64{b, h, l, ev}) {
		return fmt.Errorf("attention result %v, expected %v", got, []int64{b, h, l, ev})
	}
	return nil
}
