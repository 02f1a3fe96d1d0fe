package passes

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/ir"
)

// Normalisations and reductions outside core ATen.

func init() {
	registerRule(groupNorm, "aten.group_norm.default")
	registerRule(instanceNorm, "aten.instance_norm.default")
	registerRule(varianceDim(false), "aten.var.dim")
	registerRule(varianceDim(true), "aten.std.dim")
	registerRule(vectorNorm, "aten.linalg_vector_norm.default")
	registerRule(logsumexp, "aten.logsumexp.default")
	registerRule(maskedFillScalar, "aten.masked_fill.Scalar")
}

// group_norm(x, groups, w, b, eps) = native_group_norm(x, w, b, N, C, H·W…, groups, eps)[0].
func groupNorm(b *Builder, n *ir.Node) error {
	x, err := tensorIn(n, "input")
	if err != nil {
		return err
	}
	if len(x.Meta.Sizes) < 2 || !x.Meta.IsStatic() {
		return fmt.Errorf("group_norm of %s", x.Meta)
	}
	s := sizesOf(x.Meta)
	hw := int64(1)
	for _, d := range s[2:] {
		hw *= d
	}
	outs := b.CallN("aten.native_group_norm.default", T("input", x), ArgOr(n, "weight", None("weight")), ArgOr(n, "bias", None("bias")),
		I("N", s[0]), I("C", s[1]), I("HxW", hw), I("group", n.IntArg("num_groups", 1)), F("eps", n.ScalarArg("eps", 1e-5)))
	if b.Err() != nil {
		return b.Err()
	}
	return b.Replace(outs[0])
}

// instance_norm without running statistics is batch norm over a [1, N·C, …] view using the
// input's statistics, the affine parameters repeated N times (ATen's instance_norm).
func instanceNorm(b *Builder, n *ir.Node) error {
	x, err := tensorIn(n, "input")
	if err != nil {
		return err
	}
	if n.TensorArg("running_mean") != nil || n.TensorArg("running_var") != nil {
		return fmt.Errorf("instance_norm with running statistics is not decomposed yet")
	}
	if !n.BoolArg("use_input_stats", true) {
		return fmt.Errorf("instance_norm without input statistics needs running statistics")
	}
	if len(x.Meta.Sizes) < 2 || !x.Meta.IsStatic() {
		return fmt.Errorf("instance_norm of %s", x.Meta)
	}
	s := sizesOf(x.Meta)
	shape := append([]int64{1, s[0] * s[1]}, s[2:]...)
	affine := func(name string) ir.Arg {
		if v := n.TensorArg(name); v != nil {
			return T(name, b.Call("aten.repeat.default", T("self", v), Is("repeats", s[0])))
		}
		return None(name)
	}
	w, bias := affine("weight"), affine("bias")
	view := b.Call("aten.view.default", T("self", x), Is("size", shape...))
	outs := b.CallN("aten._native_batch_norm_legit.no_stats", T("input", view), w, bias, Bo("training", true),
		F("momentum", n.ScalarArg("momentum", 0.1)), F("eps", n.ScalarArg("eps", 1e-5)))
	if b.Err() != nil {
		return b.Err()
	}
	return b.Replace(b.Call("aten.view.default", T("self", outs[0]), Is("size", s...)))
}

// var.dim / std.dim (unbiased) = var.correction with correction 1 or 0 (std: its square root;
// torch's std decomposition passes the correction as a float).
func varianceDim(std bool) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		correction := int64(1)
		if !n.BoolArg("unbiased", true) {
			correction = 0
		}
		c := I("correction", correction)
		if std {
			c = F("correction", float64(correction))
		}
		c.KwargOnly = true
		v := b.Call("aten.var.correction", T("self", x), ArgOr(n, "dim", None("dim")), c,
			ir.Arg{Name: "keepdim", Kind: ir.ArgBool, Bool: n.BoolArg("keepdim", false), KwargOnly: true})
		if std {
			v = b.Call("aten.sqrt.default", T("self", v))
		}
		return b.Replace(v)
	}
}

// linalg_vector_norm(x, ord, dim, keepdim) as torch's reference computes it: ord 0 counts
// non-zeros, ±inf is amax/amin of |x|, otherwise (Σ|x|^ord)^(1/ord), the abs skipped for an even
// ord of a float tensor.
func vectorNorm(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	ord := ir.Arg{Name: "ord", Kind: ir.ArgInt, Int: 2}
	if a := n.Arg("ord"); a != nil && (a.Kind == ir.ArgInt || a.Kind == ir.ArgFloat) {
		ord = *a
	}
	p := ord.Float
	if ord.Kind == ir.ArgInt {
		p = float64(ord.Int)
	}
	if _, ok := scalarTypeArg(n, "dtype"); ok {
		return fmt.Errorf("linalg_vector_norm with a dtype is not decomposed yet")
	}
	dim := ArgOr(n, "dim", None("dim"))
	keep := Bo("keepdim", n.BoolArg("keepdim", false))
	switch {
	case p == 0:
		nz := b.Call("aten.ne.Scalar", T("self", x), F("other", 0))
		return b.Replace(b.Call("aten.sum.dim_IntList", T("self", nz), dim, keep, Dt("dtype", x.Meta.DType)))
	case math.IsInf(p, 1):
		return b.Replace(b.Call("aten.amax.default", T("self", b.Call("aten.abs.default", T("self", x))), Renamed(dimList(dim), "dim"), keep))
	case math.IsInf(p, -1):
		return b.Replace(b.Call("aten.amin.default", T("self", b.Call("aten.abs.default", T("self", x))), Renamed(dimList(dim), "dim"), keep))
	}
	if !(math.Mod(p, 2) == 0 && x.Meta.DType.IsFloat()) {
		x = b.Call("aten.abs.default", T("self", x))
	}
	pw := b.Call("aten.pow.Tensor_Scalar", T("self", x), Renamed(ord, "exponent"))
	sum := b.Call("aten.sum.dim_IntList", T("self", pw), dim, keep)
	return b.Replace(b.Call("aten.pow.Tensor_Scalar", T("self", sum), F("exponent", 1/p)))
}

// dimList turns an absent dim (None) into the empty list amax/amin take for "all dims".
func dimList(a ir.Arg) ir.Arg {
	if a.Kind == ir.ArgNone {
		return Is(a.Name)
	}
	return a
}

// logsumexp(x, dim, keepdim) = log(Σ exp(x - m)) + m, m = amax(x, dim) with infinite maxima
// replaced by 0.
func logsumexp(b *Builder, n *ir.Node) error {
	x := self(b, n)
	dim := ArgOr(n, "dim", Is("dim"))
	keep := n.BoolArg("keepdim", false)
	m := b.Call("aten.amax.default", T("self", x), dim, Bo("keepdim", true))
	inf := b.Call("aten.eq.Scalar", T("self", b.Call("aten.abs.default", T("self", m))), F("other", math.Inf(1)))
	m = b.Call("aten.where.self", T("condition", inf), T("self", scalarTensor(b, F("", 0), m)), T("other", m))
	shift := m
	if !keep {
		shift = b.Call("aten.squeeze.dims", T("self", m), Renamed(dim, "dim"))
	}
	e := b.Call("aten.exp.default", T("self", b.Call("aten.sub.Tensor", T("self", x), T("other", m))))
	s := b.Call("aten.sum.dim_IntList", T("self", e), dim, Bo("keepdim", keep))
	return b.Replace(b.Call("aten.add.Tensor", T("self", b.Call("aten.log.default", T("self", s))), T("other", shift)))
}

// masked_fill(x, mask, value) = where(mask, value as a 0-d tensor of x's dtype, x).
func maskedFillScalar(b *Builder, n *ir.Node) error {
	x := self(b, n)
	mask := n.TensorArg("mask")
	value := n.Arg("value")
	if mask == nil || value == nil {
		return fmt.Errorf("masked_fill without a mask or a value")
	}
	// The refs convert the value to x's Python type first (10 → 10.0 for a float tensor).
	return b.Replace(b.Call("aten.where.self", T("condition", mask), T("self", scalarTensor(b, pyNumber(*value, x.Meta.DType), x)), T("other", x)))
}
