package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

func init() {
	registerRule(weightNorm, "aten._weight_norm.default")
}

// _weight_norm(v, g, dim) = v · (g / ‖v‖), the norm taken over every dim but dim, as ATen's
// composite computes it: for dim 0 or the last dim (and no half types) through
// _weight_norm_interface, whose decomposition takes linalg_vector_norm(v, 2, the other dims,
// keepdim, g's dtype); for dim -1 over the whole tensor (v.norm(2)). Other dims go through
// transposes and views (norm_except_dim), not decomposed yet.
func weightNorm(b *Builder, n *ir.Node) error {
	v, g := n.TensorArg("v"), n.TensorArg("g")
	if v == nil || g == nil || v.Meta == nil || g.Meta == nil {
		return fmt.Errorf("%s without v or g", n.Target)
	}
	// ATen makes both contiguous first: a no-op for the parameters weight norm is used on.
	if !surelyContiguous(v) || !surelyContiguous(g) {
		return fmt.Errorf("%s of a tensor that may not be contiguous is not decomposed yet", n.Target)
	}
	dim := n.IntArg("dim", 0)
	rank := int64(len(v.Meta.Sizes))
	half := func(d ir.DType) bool { return d == ir.Float16 || d == ir.BFloat16 }
	var norm *ir.Value
	var err error
	switch {
	case dim == -1:
		norm, err = vectorNormOf(b, v, I("ord", 2), 2, None("dim"), false, nil)
	case (dim == 0 || dim == rank-1) && !half(v.Meta.DType) && !half(g.Meta.DType):
		var reduce []int64
		for i := range rank {
			if i != dim {
				reduce = append(reduce, i)
			}
		}
		if len(reduce) == 0 {
			norm = convert(b, b.Call("aten.abs.default", T("self", v)), g.Meta.DType)
		} else {
			dt := g.Meta.DType
			norm, err = vectorNormOf(b, v, I("ord", 2), 2, Is("dim", reduce...), true, &dt)
		}
	default:
		return fmt.Errorf("%s over dim %d of a %d-d %s tensor (norm_except_dim through transposes) is not decomposed yet", n.Target, dim, rank, v.Meta.DType)
	}
	if err != nil {
		return err
	}
	scale := b.Call("aten.div.Tensor", T("self", g), T("other", convert(b, norm, g.Meta.DType)))
	return b.Replace(b.Call("aten.mul.Tensor", T("self", v), T("other", scale)))
}
