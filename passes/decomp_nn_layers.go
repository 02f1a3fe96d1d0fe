package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Gated and parametric activations and RMS normalisation, as torch's references and ATen's
// composites write them.

func init() {
	registerRule(glu, "aten.glu.default")
	registerRule(prelu, "aten.prelu.default")
	registerRule(preluKernel, "aten._prelu_kernel.default")
	registerRule(rmsNorm, "aten.rms_norm.default")
}

// glu(x, dim) = a · sigmoid(b), a and b the two halves of x along dim (tensor_split's slices).
func glu(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	d, ok := norm(n.IntArg("dim", -1), len(x.Meta.Sizes))
	if !ok || !x.Meta.Sizes[d].IsStatic() || x.Meta.Sizes[d].Size%2 != 0 {
		return fmt.Errorf("glu of %s along dim %d: the dim must be static and even", x.Meta, n.IntArg("dim", -1))
	}
	half := x.Meta.Sizes[d].Size / 2
	slice := func(start, end int64) *ir.Value {
		return b.Call("aten.slice.Tensor", T("self", x), I("dim", int64(d)), I("start", start), I("end", end), I("step", 1))
	}
	first, second := slice(0, half), slice(half, 2*half)
	return b.Replace(b.Call("aten.mul.Tensor", T("self", first), T("other", b.Call("aten.sigmoid.default", T("self", second)))))
}

// prelu(x, w): w reshaped to broadcast over x's channel dim (1) when the ranks differ, then
// _prelu_kernel.
func prelu(b *Builder, n *ir.Node) error {
	x := self(b, n)
	w := n.TensorArg("weight")
	if b.Err() != nil {
		return b.Err()
	}
	if w == nil || w.Meta == nil || len(w.Meta.Sizes) > 1 {
		return fmt.Errorf("prelu: the weight must be a 0-d or 1-d tensor")
	}
	if rank := len(x.Meta.Sizes); rank != len(w.Meta.Sizes) {
		shape := repeat(1, rank)
		if rank > 1 {
			count, ok := numel(w.Meta.Sizes)
			if !ok {
				return fmt.Errorf("prelu with a symbolic weight size")
			}
			shape[1] = count
		}
		w = b.Call("aten.view.default", T("self", w), Is("size", shape...))
	}
	return b.Replace(b.Call("aten._prelu_kernel.default", T("self", x), T("weight", w)))
}

// _prelu_kernel(x, w) = where(x > 0, x, w · x).
func preluKernel(b *Builder, n *ir.Node) error {
	x := self(b, n)
	w := n.TensorArg("weight")
	if w == nil {
		return fmt.Errorf("_prelu_kernel without a weight")
	}
	pos := b.Call("aten.gt.Scalar", T("self", x), I("other", 0))
	neg := b.Call("aten.mul.Tensor", T("self", w), T("other", x))
	return b.Replace(b.Call("aten.where.self", T("condition", pos), T("self", x), T("other", neg)))
}

// rms_norm(x, shape, w, eps) is _fused_rms_norm's decomposition: x · rsqrt(mean(x², the last
// len(shape) dims, innermost first) + eps) · w, computed in float32 for half-precision inputs;
// eps defaults to the computation type's machine epsilon.
func rmsNorm(b *Builder, n *ir.Node) error {
	x, err := tensorIn(n, "input")
	if err != nil {
		return err
	}
	shape := n.IntsArg("normalized_shape", nil)
	rank := len(x.Meta.Sizes)
	if len(shape) > rank {
		return fmt.Errorf("rms_norm: normalized shape %v longer than the input %s", shape, x.Meta)
	}
	var dims []int64
	for i := range shape {
		dims = append(dims, int64(rank-i-1))
	}
	dt := x.Meta.DType
	compute := dt
	switch dt {
	case ir.Float16, ir.BFloat16:
		compute = ir.Float32
	case ir.Float32, ir.Float64:
	default:
		return fmt.Errorf("rms_norm of %s", dt)
	}
	eps := 1.1920928955078125e-07 // torch.finfo(torch.float32).eps
	if compute == ir.Float64 {
		eps = 2.220446049250313e-16
	}
	if a := n.Arg("eps"); a != nil && a.Kind == ir.ArgFloat {
		eps = a.Float
	}
	up := x
	if compute != dt {
		up = b.Call("aten._to_copy.default", T("self", x), Dt("dtype", compute))
	}
	ms := b.Call("aten.mean.dim", T("self", b.Call("aten.pow.Tensor_Scalar", T("self", up), I("exponent", 2))), Is("dim", dims...), Bo("keepdim", true))
	r := b.Call("aten.rsqrt.default", T("self", b.Call("aten.add.Scalar", T("self", ms), F("other", eps))))
	y := b.Call("aten.mul.Tensor", T("self", up), T("other", r))
	if w := n.TensorArg("weight"); w != nil {
		y = b.Call("aten.mul.Tensor", T("self", y), T("other", w))
	}
	if y != nil && y.Meta.DType != dt {
		y = b.Call("aten._to_copy.default", T("self", y), Dt("dtype", dt))
	}
	return b.Replace(y)
}
