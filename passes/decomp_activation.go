package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Activation functions, as torch's decomposition table writes them (torch/_decomp and
// torch/_refs/nn/functional): each rule calls the same core operators in the same order, with
// Python numbers where torch passes them (ScalarToTensor lifts them later, as to_edge does).

func init() {
	registerRule(silu, "aten.silu.default")
	registerRule(mish, "aten.mish.default")
	registerRule(softplus, "aten.softplus.default")
	registerRule(relu6, "aten.relu6.default")
	registerRule(logSigmoid, "aten.log_sigmoid.default")
	registerRule(selu, "aten.selu.default")
	registerRule(celu, "aten.celu.default")
	registerRule(square, "aten.square.default")
	registerRule(rsub, "aten.rsub.Scalar", "aten.rsub.Tensor")
	registerRule(hardshrink, "aten.hardshrink.default")
	registerRule(softshrink, "aten.softshrink.default")
	registerRule(threshold, "aten.threshold.default")
	registerRule(clampSide("min"), "aten.clamp_min.default")
	registerRule(clampSide("max"), "aten.clamp_max.default")
}

// self is the node's "self" tensor, or a recorded failure.
func self(b *Builder, n *ir.Node) *ir.Value {
	if v := n.TensorArg("self"); v != nil && v.Meta != nil {
		return v
	}
	return b.Fail("%s: self is not a tensor", n.Target)
}

// numberArg is n's number argument name as an argument called as, or def.
func numberArg(n *ir.Node, name, as string, def ir.Arg) ir.Arg {
	if a := n.Arg(name); a != nil && (a.Kind == ir.ArgInt || a.Kind == ir.ArgFloat || a.Kind == ir.ArgBool) {
		c := *a
		c.Name = as
		return c
	}
	def.Name = as
	return def
}

// scalarTensor is torch.where's treatment of a Python number operand: a 0-d tensor of the
// other operand's dtype, made by scalar_tensor with the number as given.
func scalarTensor(b *Builder, value ir.Arg, like *ir.Value) *ir.Value {
	if like == nil {
		return nil
	}
	value.Name = "s"
	return b.Call("aten.scalar_tensor.default", value, Dt("dtype", like.Meta.DType), layoutStrided(), deviceCPU())
}

func layoutStrided() ir.Arg {
	return ir.Arg{Name: "layout", Kind: ir.ArgLayout, Int: 7, KwargOnly: true}
}

func deviceCPU() ir.Arg {
	return ir.Arg{Name: "device", Kind: ir.ArgDevice, Str: "cpu", KwargOnly: true}
}

// silu(x) = x * sigmoid(x).
func silu(b *Builder, n *ir.Node) error {
	x := self(b, n)
	return b.Replace(b.Call("aten.mul.Tensor", T("self", x), T("other", b.Call("aten.sigmoid.default", T("self", x)))))
}

// mish(x) = x * tanh(softplus(x)), softplus with threshold 20 written out.
func mish(b *Builder, n *ir.Node) error {
	x := self(b, n)
	sp := b.Call("aten.log1p.default", T("self", b.Call("aten.exp.default", T("self", x))))
	big := b.Call("aten.gt.Scalar", T("self", x), I("other", 20))
	sp = b.Call("aten.where.self", T("condition", big), T("self", x), T("other", sp))
	return b.Replace(b.Call("aten.mul.Tensor", T("self", x), T("other", b.Call("aten.tanh.default", T("self", sp)))))
}

// softplus(x, beta, threshold) = where(x*beta > threshold, x, log1p(exp(x*beta)) / beta);
// without a beta (the node does not give one) torch's reference skips the scaling.
func softplus(b *Builder, n *ir.Node) error {
	x := self(b, n)
	scaled := x
	var rhs *ir.Value
	if n.HasScalarArg("beta") {
		beta := numberArg(n, "beta", "other", I("", 1))
		scaled = b.Call("aten.mul.Tensor", T("self", x), beta)
		rhs = b.Call("aten.log1p.default", T("self", b.Call("aten.exp.default", T("self", scaled))))
		rhs = b.Call("aten.div.Tensor", T("self", rhs), beta)
	} else {
		rhs = b.Call("aten.log1p.default", T("self", b.Call("aten.exp.default", T("self", x))))
	}
	big := b.Call("aten.gt.Scalar", T("self", scaled), numberArg(n, "threshold", "other", I("", 20)))
	return b.Replace(b.Call("aten.where.self", T("condition", big), T("self", x), T("other", rhs)))
}

// relu6(x) = hardtanh(x, 0, 6).
func relu6(b *Builder, n *ir.Node) error {
	return b.Replace(b.Call("aten.hardtanh.default", T("self", self(b, n)), I("min_val", 0), I("max_val", 6)))
}

// log_sigmoid(x) = min(0, x) - log1p(exp(-|x|)).
func logSigmoid(b *Builder, n *ir.Node) error {
	x := self(b, n)
	zero := b.Call("aten.full.default", Is("size"), I("fill_value", 0), Dt("dtype", x.Meta.DType), layoutStrided(), deviceCPU(),
		ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
	lo := b.Call("aten.minimum.default", T("self", zero), T("other", x))
	z := b.Call("aten.exp.default", T("self", b.Call("aten.neg.default", T("self", b.Call("aten.abs.default", T("self", x))))))
	return b.Replace(b.Call("aten.sub.Tensor", T("self", lo), T("other", b.Call("aten.log1p.default", T("self", z)))))
}

// selu(x) = elu(x, alpha, scale) with SELU's constants.
func selu(b *Builder, n *ir.Node) error {
	return b.Replace(b.Call("aten.elu.default", T("self", self(b, n)),
		F("alpha", 1.6732632423543772848170429916717), F("scale", 1.0507009873554804934193349852946)))
}

// celu(x, alpha) = where(x > 0, x, alpha * expm1(x / alpha)), or expm1(x) on the right when
// the node gives no alpha.
func celu(b *Builder, n *ir.Node) error {
	x := self(b, n)
	var rhs *ir.Value
	if n.HasScalarArg("alpha") {
		alpha := numberArg(n, "alpha", "other", F("", 1))
		rhs = b.Call("aten.expm1.default", T("self", b.Call("aten.div.Tensor", T("self", x), alpha)))
		rhs = b.Call("aten.mul.Tensor", T("self", rhs), alpha)
	} else {
		rhs = b.Call("aten.expm1.default", T("self", x))
	}
	pos := b.Call("aten.gt.Scalar", T("self", x), I("other", 0))
	return b.Replace(b.Call("aten.where.self", T("condition", pos), T("self", x), T("other", rhs)))
}

// square(x) = pow(x, 2).
func square(b *Builder, n *ir.Node) error {
	return b.Replace(b.Call("aten.pow.Tensor_Scalar", T("self", self(b, n)), I("exponent", 2)))
}

// rsub(x, other, alpha) = sub(other, x, alpha).
func rsub(b *Builder, n *ir.Node) error {
	x := self(b, n)
	other := n.Arg("other")
	if other == nil {
		return fmt.Errorf("rsub without other")
	}
	args := []ir.Arg{Renamed(*other, "self"), T("other", x)}
	if a := n.Arg("alpha"); a != nil && !(a.Kind == ir.ArgInt && a.Int == 1) {
		args = append(args, Renamed(*a, "alpha"))
	}
	return b.Replace(b.Call("aten.sub.Tensor", args...))
}

// hardshrink(x, lambd) = where(|x| <= lambd, 0, x).
func hardshrink(b *Builder, n *ir.Node) error {
	x := self(b, n)
	small := b.Call("aten.le.Scalar", T("self", b.Call("aten.abs.default", T("self", x))), numberArg(n, "lambd", "other", F("", 0.5)))
	return b.Replace(b.Call("aten.where.self", T("condition", small), T("self", scalarTensor(b, I("", 0), x)), T("other", x)))
}

// softshrink(x, lambd) = where(|x| > lambd, x - sign(x) * lambd, x * 0).
func softshrink(b *Builder, n *ir.Node) error {
	x := self(b, n)
	lambd := numberArg(n, "lambd", "other", F("", 0.5))
	big := b.Call("aten.gt.Scalar", T("self", b.Call("aten.abs.default", T("self", x))), lambd)
	shift := b.Call("aten.mul.Tensor", T("self", b.Call("aten.sign.default", T("self", x))), lambd)
	lhs := b.Call("aten.sub.Tensor", T("self", x), T("other", shift))
	zero := b.Call("aten.mul.Tensor", T("self", x), I("other", 0))
	return b.Replace(b.Call("aten.where.self", T("condition", big), T("self", lhs), T("other", zero)))
}

// threshold(x, threshold, value) = where(x <= threshold, value, x).
func threshold(b *Builder, n *ir.Node) error {
	x := self(b, n)
	le := b.Call("aten.le.Scalar", T("self", x), numberArg(n, "threshold", "other", I("", 0)))
	return b.Replace(b.Call("aten.where.self", T("condition", le), T("self", scalarTensor(b, numberArg(n, "value", "s", I("", 0)), x)), T("other", x)))
}

// clamp_min(x, m) = clamp(x, min=m); clamp_max likewise.
func clampSide(side string) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		bound := n.Arg(side)
		if bound == nil {
			return fmt.Errorf("%s without %s", n.Target, side)
		}
		if side == "min" {
			return b.Replace(b.Call("aten.clamp.default", T("self", x), Renamed(*bound, "min")))
		}
		return b.Replace(b.Call("aten.clamp.default", T("self", x), None("min"), Renamed(*bound, "max")))
	}
}

func init() {
	registerRule(hard(false), "aten.hardsigmoid.default")
	registerRule(hard(true), "aten.hardswish.default")
}

// hardsigmoid(x) = clamp(clamp(x + 3, min=0), max=6) / 6; hardswish multiplies by x before
// the division (torch's decompositions, with Python ints that ScalarToTensor lifts as int64
// constants and converts to x's dtype). Both are @pw_cast_for_opmath: a float16 or bfloat16 x
// is computed in float32 and the result converted back (the official bf16 programs' fp32
// hardswish delegate, testdata/bf16/hardswish).
func hard(swish bool) rule {
	return func(b *Builder, n *ir.Node) error {
		vs, result := opmathCast(b, self(b, n))
		x := vs[0]
		y := b.Call("aten.add.Tensor", T("self", x), I("other", 3))
		y = b.Call("aten.clamp.default", T("self", y), I("min", 0))
		y = b.Call("aten.clamp.default", T("self", y), None("min"), I("max", 6))
		if swish {
			y = b.Call("aten.mul.Tensor", T("self", x), T("other", y))
		}
		return b.Replace(convert(b, b.Call("aten.div.Tensor", T("self", y), I("other", 6)), result))
	}
}
