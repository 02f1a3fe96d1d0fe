package passes

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/ir"
)

// Scaled dot-product attention as torch 2.15 exports and decomposes it on the CPU: 3-d inputs
// are unsqueezed to one batch (the mask to 4-d), a bool mask becomes an additive 0/-inf one;
// then the backend ATen would choose: the flash kernel (no dropout, one head size), whose
// decomposition is the math one with the output laid out as the kernel allocates it (permute,
// contiguous copy, permute back), or the math composite itself. The math composite scales q and
// kᵀ by √scale each, multiplies them through no-op expands and 3-d views, adds the mask (the
// causal one built from two aranges), takes a softmax whose all -inf rows become zeros
// (_safe_softmax), drops out, and multiplies by v.

func init() {
	registerRule(sdpa, "aten.scaled_dot_product_attention.default")
	registerRule(sdpaFlashCPU, "aten._scaled_dot_product_flash_attention_for_cpu.default")
	registerRule(sdpaMathRule, "aten._scaled_dot_product_attention_math.default")
}

// attention is one attention call's operands.
type attention struct {
	q, k, v, mask *ir.Value
	dropout       float64
	causal        bool
	scale         float64 // NaN: 1/√E
	gqa           bool
}

func attentionArgs(n *ir.Node) (attention, error) {
	var a attention
	var err error
	if a.q, err = tensorIn(n, "query"); err != nil {
		return a, err
	}
	if a.k, err = tensorIn(n, "key"); err != nil {
		return a, err
	}
	if a.v, err = tensorIn(n, "value"); err != nil {
		return a, err
	}
	if m := n.Arg("attn_mask"); m != nil && m.Kind != ir.ArgNone {
		if a.mask, err = tensorIn(n, "attn_mask"); err != nil {
			return a, err
		}
	}
	a.dropout = n.ScalarArg("dropout_p", 0)
	a.causal = n.BoolArg("is_causal", false)
	a.scale = math.NaN()
	if s := n.Arg("scale"); s != nil && (s.Kind == ir.ArgFloat || s.Kind == ir.ArgInt) {
		a.scale = n.ScalarArg("scale", 0)
	}
	a.gqa = n.BoolArg("enable_gqa", false)
	for _, x := range []*ir.Value{a.q, a.k, a.v} {
		if !x.Meta.IsStatic() {
			return a, fmt.Errorf("attention on %s (%s): only static shapes are decomposed", x.Name, x.Meta)
		}
	}
	if a.causal && a.mask != nil {
		return a, fmt.Errorf("attention with both a mask and is_causal (torch refuses it)")
	}
	switch dt := a.q.Meta.DType; dt {
	case ir.Float32, ir.Float64, ir.Float16, ir.BFloat16:
	default:
		return a, fmt.Errorf("attention in %s: only floating-point attention is decomposed", dt)
	}
	return a, nil
}

// boolMaskToAdditive converts a bool mask as scaled_dot_product_attention does before calling
// the kernels, for the kernels called directly.
func (a *attention) boolMaskToAdditive(b *Builder) {
	if a.mask != nil && a.mask.Meta.DType == ir.Bool {
		a.mask = additiveMask(b, a.mask, a.q.Meta.DType)
	}
}

// additiveMask is convert_boolean_attn_mask: where(mask, 0, -inf) in the query's dtype.
func additiveMask(b *Builder, mask *ir.Value, dt ir.DType) *ir.Value {
	negInf := b.Call("aten.scalar_tensor.default", F("s", math.Inf(-1)), Dt("dtype", dt), deviceCPU())
	zero := b.Call("aten.scalar_tensor.default", F("s", 0), Dt("dtype", dt), layoutStrided(), deviceCPU())
	return b.Call("aten.where.self", T("condition", mask), T("self", zero), T("other", negInf))
}

// sdpa is scaled_dot_product_attention.
func sdpa(b *Builder, n *ir.Node) error {
	a, err := attentionArgs(n)
	if err != nil {
		return err
	}
	rank := len(a.q.Meta.Sizes)
	if len(a.k.Meta.Sizes) != rank || len(a.v.Meta.Sizes) != rank || (rank != 3 && rank != 4) {
		return fmt.Errorf("attention of %s, %s, %s: only 3-d and 4-d inputs of one rank are decomposed", a.q.Meta, a.k.Meta, a.v.Meta)
	}
	unbatched := rank == 3
	if unbatched {
		a.q = b.Call("aten.unsqueeze.default", T("self", a.q), I("dim", 0))
		a.k = b.Call("aten.unsqueeze.default", T("self", a.k), I("dim", 0))
		a.v = b.Call("aten.unsqueeze.default", T("self", a.v), I("dim", 0))
		for a.mask != nil && len(a.mask.Meta.Sizes) < 4 {
			a.mask = b.Call("aten.unsqueeze.default", T("self", a.mask), I("dim", 0))
		}
	}
	a.boolMaskToAdditive(b)
	if b.Err() != nil {
		return b.Err()
	}
	var out *ir.Value
	if flashApplies(a) {
		out, _ = flashCPU(b, a)
	} else {
		out, _ = sdpaMath(b, a)
	}
	if unbatched {
		out = b.Call("aten.squeeze.dims", T("self", out), Is("dim", 0))
	}
	return b.Replace(out)
}

// flashApplies is the CPU flash kernel's admission (sdp_utils_cpp's use_flash_attention_cpp) as
// far as a static float graph can fail it: no dropout, one head size, non-empty sequences.
func flashApplies(a attention) bool {
	qs, ks, vs := sizesOf(a.q.Meta), sizesOf(a.k.Meta), sizesOf(a.v.Meta)
	return a.dropout == 0 && qs[3] == ks[3] && ks[3] == vs[3] && qs[2] > 0 && ks[2] > 0
}

// flashCPU is the decomposition of _scaled_dot_product_flash_attention_for_cpu: the math
// composite (grouped-query when the head counts differ), its output permuted to [L, B, H, E],
// made contiguous (copied only if it is not) and permuted back; and the attention weights.
func flashCPU(b *Builder, a attention) (out, attn *ir.Value) {
	if b.Err() != nil {
		return nil, nil
	}
	a.gqa = a.q.Meta.Sizes[1] != a.k.Meta.Sizes[1]
	out, attn = sdpaMath(b, a)
	out = b.Call("aten.permute.default", T("self", out), Is("dims", 2, 0, 1, 3))
	// contiguous, not clone: a no-op (no copy in the graph) when the permuted output already
	// is contiguous, as with a single head.
	out = b.Call("aten.contiguous.default", T("self", out), memoryFormat(memoryFormatContiguous))
	return b.Call("aten.permute.default", T("self", out), Is("dims", 1, 2, 0, 3)), attn
}

// sdpaMath is _scaled_dot_product_attention_math on 4-d inputs: the output and the weights.
func sdpaMath(b *Builder, a attention) (out, attn *ir.Value) {
	if b.Err() != nil {
		return nil, nil
	}
	if len(a.q.Meta.Sizes) != 4 || len(a.k.Meta.Sizes) != 4 || len(a.v.Meta.Sizes) != 4 {
		b.Fail("attention math of %s, %s, %s: only 4-d inputs are decomposed", a.q.Meta, a.k.Meta, a.v.Meta)
		return nil, nil
	}
	qs, ks, vs := sizesOf(a.q.Meta), sizesOf(a.k.Meta), sizesOf(a.v.Meta)
	bt, h, l, e, s, ev := qs[0], qs[1], qs[2], qs[3], ks[2], vs[3]
	if ks[0] != bt || vs[0] != bt || ks[1] != vs[1] || vs[2] != s || ks[3] != e {
		b.Fail("attention of %s, %s, %s: broadcast batch dims are not decomposed", a.q.Meta, a.k.Meta, a.v.Meta)
		return nil, nil
	}
	repeats := int64(1)
	if ks[1] != h {
		if !a.gqa || ks[1] == 0 || h%ks[1] != 0 {
			b.Fail("attention with %d query heads and %d key heads (grouped-query attention needs enable_gqa and a whole number of query heads per key head)", h, ks[1])
			return nil, nil
		}
		repeats = h / ks[1]
	}
	// Half precision on the CPU computes in float32 (the math kernel's query_acc, key_acc,
	// value_acc), the mask converted where it is added, and converts both results back.
	origin := a.q.Meta.DType
	half := origin == ir.Float16 || origin == ir.BFloat16
	if half {
		a.q, a.k, a.v = convert(b, a.q, ir.Float32), convert(b, a.k, ir.Float32), convert(b, a.v, ir.Float32)
	}
	dt := a.q.Meta.DType
	scale := a.scale
	if math.IsNaN(scale) {
		scale = 1 / math.Sqrt(float64(e))
	}
	negative := scale < 0
	factor := math.Sqrt(math.Abs(scale))
	qFactor := factor
	if negative {
		qFactor = 0 - factor
	}
	q := b.Call("aten.mul.Scalar", T("self", a.q), F("other", qFactor))
	mask := a.mask
	if a.causal {
		all := b.Call("aten.full.default", Is("size", l, s), Bo("fill_value", true), Dt("dtype", ir.Bool), layoutStrided(), deviceCPU(),
			ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
		arange := func(end, dim int64) *ir.Value {
			r := b.Call("aten.arange.start_step", I("start", 0), I("end", end), I("step", 1), layoutStrided(), deviceCPU(),
				ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
			return b.Call("aten.unsqueeze.default", T("self", r), I("dim", dim))
		}
		cols := arange(s, -2)
		rows := arange(l, -1)
		below := b.Call("aten.le.Scalar", T("self", b.Call("aten.sub.Tensor", T("self", cols), T("other", rows))), I("other", 0))
		mask = additiveMask(b, b.Call("aten.logical_and.default", T("self", below), T("other", all)), dt)
	}
	if repeats > 1 {
		// pre_process_group_query_attention_input: k and v repeat_interleave'd over the heads
		// (unsqueeze, expand, contiguous copy, view).
		interleave := func(x *ir.Value) *ir.Value {
			xs := sizesOf(x.Meta)
			x = b.Call("aten.unsqueeze.default", T("self", x), I("dim", 2))
			x = b.Call("aten.expand.default", T("self", x), Is("size", xs[0], xs[1], repeats, xs[2], xs[3]))
			x = b.Call("aten.clone.default", T("self", x), memoryFormat(memoryFormatContiguous))
			return b.Call("aten.view.default", T("self", x), Is("size", xs[0], xs[1]*repeats, xs[2], xs[3]))
		}
		a.k, a.v = interleave(a.k), interleave(a.v)
	}
	kT := b.Call("aten.permute.default", T("self", a.k), Is("dims", 0, 1, 3, 2))
	kT = b.Call("aten.mul.Scalar", T("self", kT), F("other", factor))
	bmm := func(x, y *ir.Value, xs, ys []int64) *ir.Value {
		// matmul reshapes the expanded operands: a view when their strides allow one, else a
		// contiguous copy first (a permuted q or k), which the reshape rule decides.
		x = b.Call("aten.reshape.default", T("self", b.Call("aten.expand.default", T("self", x), Is("size", xs...))), Is("shape", bt*h, xs[2], xs[3]))
		y = b.Call("aten.reshape.default", T("self", b.Call("aten.expand.default", T("self", y), Is("size", ys...))), Is("shape", bt*h, ys[2], ys[3]))
		r := b.Call("aten.bmm.default", T("self", x), T("mat2", y))
		return b.Call("aten.view.default", T("self", r), Is("size", bt, h, xs[2], ys[3]))
	}
	scores := bmm(q, kT, []int64{bt, h, l, e}, []int64{bt, h, e, s})
	if mask != nil {
		if half {
			mask = convert(b, mask, dt)
		}
		scores = b.Call("aten.add.Tensor", T("self", scores), T("other", mask))
	}
	attn = sdpaSafeSoftmax(b, scores)
	if a.dropout > 0 {
		outs := b.CallN("aten.native_dropout.default", T("input", attn), F("p", a.dropout), Bo("train", true))
		if b.Err() != nil {
			return nil, nil
		}
		attn = outs[0]
	}
	out = bmm(attn, a.v, []int64{bt, h, l, s}, []int64{bt, h, s, ev})
	if half {
		return convert(b, out, origin), convert(b, attn, origin)
	}
	return out, attn
}

// sdpaSafeSoftmax is _safe_softmax over the last dim: softmax, with rows that are all -inf zero.
func sdpaSafeSoftmax(b *Builder, x *ir.Value) *ir.Value {
	sm := b.Call("aten._softmax.default", T("self", x), I("dim", -1), Bo("half_to_float", false))
	finite := b.Call("aten.logical_not.default", T("self", b.Call("aten.eq.Scalar", T("self", x), F("other", math.Inf(-1)))))
	allInf := b.Call("aten.logical_not.default", T("self", b.Call("aten.any.dim", T("self", finite), I("dim", -1), Bo("keepdim", true))))
	zeros := b.Call("aten.full_like.default", T("self", sm), I("fill_value", 0), ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true},
		memoryFormat(memoryFormatPreserve))
	return b.Call("aten.where.self", T("condition", allInf), T("self", zeros), T("other", sm))
}

// _scaled_dot_product_flash_attention_for_cpu(q, k, v, dropout_p, is_causal, attn_mask, scale)
// returns the output and the attention weights (where the kernel returns its logsumexp: the
// decomposition's second result has another shape, which the graph takes as it is).
func sdpaFlashCPU(b *Builder, n *ir.Node) error {
	a, err := attentionArgs(n)
	if err != nil {
		return err
	}
	if a.dropout != 0 {
		return fmt.Errorf("flash attention with dropout (torch's decomposition refuses it)")
	}
	a.boolMaskToAdditive(b)
	out, attn := flashCPU(b, a)
	return replaceWithWeights(b, n, out, attn)
}

// _scaled_dot_product_attention_math(q, k, v, attn_mask, dropout_p, is_causal, dropout_mask,
// scale, enable_gqa) returns the output and the attention weights.
func sdpaMathRule(b *Builder, n *ir.Node) error {
	a, err := attentionArgs(n)
	if err != nil {
		return err
	}
	if m := n.Arg("dropout_mask"); m != nil && m.Kind != ir.ArgNone {
		return fmt.Errorf("attention with a given dropout mask is not decomposed")
	}
	a.boolMaskToAdditive(b)
	out, attn := sdpaMath(b, a)
	return replaceWithWeights(b, n, out, attn)
}

// replaceWithWeights replaces an attention node's two results; the second takes the weights'
// meta first, since the decomposition computes them where the kernel recorded another tensor.
func replaceWithWeights(b *Builder, n *ir.Node, out, attn *ir.Value) error {
	if b.Err() != nil {
		return b.Err()
	}
	if len(n.Outputs) == 2 && n.Outputs[1] != nil && attn != nil {
		meta := *attn.Meta
		n.Outputs[1].Meta = &meta
	}
	return b.Replace(out, attn)
}
