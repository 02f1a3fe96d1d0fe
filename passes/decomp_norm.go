package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Normalisations and reductions outside core ATen.

func init() {
	registerRule(groupNorm, "aten.group_norm.default")
	registerRule(instanceNorm, "aten.instance_norm.default")
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
