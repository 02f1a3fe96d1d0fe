package passes

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/ir"
)

// Elementwise operators of torch's reference library (torch/_refs): compositions of core
// elementwise operators, with Python numbers as torch passes them.

func init() {
	registerRule(addcOp("aten.mul.Tensor"), "aten.addcmul.default")
	registerRule(addcOp("aten.div.Tensor"), "aten.addcdiv.default")
	registerRule(frac, "aten.frac.default")
	registerRule(scaleBy(57.295779513082320876798154814105170332405472466564), "aten.rad2deg.default")
	registerRule(scaleBy(0.017453292519943295769236907684886127134428718885417), "aten.deg2rad.default")
	registerRule(nanToNum, "aten.nan_to_num.default")
	registerRule(countNonzero, "aten.count_nonzero.default", "aten.count_nonzero.dim_IntList")
}

// floatOnly refuses integer operands of references whose type promotion would insert casts
// (not decomposed yet).
func floatOnly(n *ir.Node, vs ...*ir.Value) error {
	for _, v := range vs {
		if v == nil || v.Meta == nil {
			return fmt.Errorf("%s: an operand is not a tensor", n.Target)
		}
		if !v.Meta.DType.IsFloat() {
			return fmt.Errorf("%s of a %s tensor is not decomposed yet", n.Target, v.Meta.DType)
		}
	}
	return nil
}

// addcmul/addcdiv(x, t1, t2, value) = x + value * t1 (*|/) t2.
func addcOp(op string) rule {
	return func(b *Builder, n *ir.Node) error {
		x, t1, t2 := n.TensorArg("self"), n.TensorArg("tensor1"), n.TensorArg("tensor2")
		if err := floatOnly(n, x, t1, t2); err != nil {
			return err
		}
		scaled := b.Call("aten.mul.Tensor", T("self", t1), numberArg(n, "value", "other", I("", 1)))
		return b.Replace(b.Call("aten.add.Tensor", T("self", x), T("other", b.Call(op, T("self", scaled), T("other", t2)))))
	}
}

// frac(x) = x - trunc(x).
func frac(b *Builder, n *ir.Node) error {
	x := self(b, n)
	return b.Replace(b.Call("aten.sub.Tensor", T("self", x), T("other", b.Call("aten.trunc.default", T("self", x)))))
}

// rad2deg / deg2rad multiply by the constant.
func scaleBy(k float64) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if err := floatOnly(n, x); err != nil {
			return err
		}
		return b.Replace(b.Call("aten.mul.Tensor", T("self", x), F("other", k)))
	}
}

// nan_to_num(x, nan, posinf, neginf) replaces NaN, -inf and +inf in turn (the dtype's
// extremes by default); integers and bools are cloned.
func nanToNum(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	if !x.Meta.DType.IsFloat() {
		return b.Replace(b.Call("aten.clone.default", T("self", x)))
	}
	lo, hi := -math.MaxFloat32, math.MaxFloat32
	switch x.Meta.DType {
	case ir.Float64:
		lo, hi = -math.MaxFloat64, math.MaxFloat64
	case ir.Float16:
		lo, hi = -65504, 65504
	case ir.BFloat16:
		lo, hi = -3.3895313892515355e38, 3.3895313892515355e38
	}
	num := func(name string, def float64) ir.Arg {
		if a := n.Arg(name); a != nil && (a.Kind == ir.ArgFloat || a.Kind == ir.ArgInt) {
			return Renamed(*a, "s")
		}
		return F("s", def)
	}
	r := b.Call("aten.where.self", T("condition", b.Call("aten.isnan.default", T("self", x))),
		T("self", scalarTensor(b, num("nan", 0), x)), T("other", x))
	r = b.Call("aten.where.self", T("condition", b.Call("aten.isneginf.default", T("self", x))),
		T("self", scalarTensor(b, num("neginf", lo), x)), T("other", r))
	r = b.Call("aten.where.self", T("condition", b.Call("aten.isposinf.default", T("self", x))),
		T("self", scalarTensor(b, num("posinf", hi), x)), T("other", r))
	return b.Replace(r)
}

// count_nonzero(x, dim) = (x != 0).sum(dim), over every dim (None) when dim is not given.
func countNonzero(b *Builder, n *ir.Node) error {
	x := self(b, n)
	nz := b.Call("aten.ne.Scalar", T("self", x), I("other", 0))
	dim := None("dim")
	if d := n.Arg("dim"); d != nil && d.Kind != ir.ArgNone {
		dim = Renamed(*d, "dim")
		if dim.Kind == ir.ArgInt {
			dim = Is("dim", dim.Int)
		}
	}
	return b.Replace(b.Call("aten.sum.dim_IntList", T("self", nz), dim))
}
