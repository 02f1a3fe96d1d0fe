package passes

import "github.com/etgo/etgo/ir"

// Shared helpers of the nn-layer decompositions (convolutions, pooling, upsampling,
// normalisations, recurrent layers).

// batchify is ATen's batchify for an operator over k spatial dims: an input without its batch
// dim is unsqueezed to one of batch 1; unbatch undoes it on the result (squeeze(0), which Edge
// writes as squeeze.dims [0]).
func batchify(b *Builder, x *ir.Value, k int) (batched *ir.Value, unbatch func(*ir.Value) *ir.Value) {
	if x == nil || len(x.Meta.Sizes) != k+1 {
		return x, func(v *ir.Value) *ir.Value { return v }
	}
	return b.Call("aten.unsqueeze.default", T("self", x), I("dim", 0)), func(v *ir.Value) *ir.Value {
		return b.Call("aten.squeeze.dims", T("self", v), Is("dim", 0))
	}
}
