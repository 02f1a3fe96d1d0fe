package passes

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// Meta rules for the operators the math decompositions emit.

func init() {
	// clamp with tensor bounds broadcasts self with them and promotes their types.
	registerInfer(elementwise([]string{"self", "min", "max"}, nil), "aten.clamp.Tensor")
	registerInfer(inferPdist, "aten._pdist_forward.default")
	registerInfer(inferCdist, "aten._cdist_forward.default")
}

// _pdist_forward of [N, M] is the N(N-1)/2 distances of distinct row pairs.
func inferPdist(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	if len(m.Sizes) != 2 || !m.Sizes[0].IsStatic() {
		return nil, fmt.Errorf("%s of %s", n.Target, m)
	}
	k := m.Sizes[0].Size
	return one(metaOf(m.DType, []ir.Dim{{Size: k * (k - 1) / 2}})), nil
}

// _cdist_forward of [..., R1, M] and [..., R2, M] is [broadcast batch..., R1, R2].
func inferCdist(n *ir.Node) ([]*ir.TensorMeta, error) {
	a, err := argMeta(n, "x1")
	if err != nil {
		return nil, err
	}
	b, err := argMeta(n, "x2")
	if err != nil {
		return nil, err
	}
	ra, rb := len(a.Sizes), len(b.Sizes)
	if ra < 2 || rb < 2 {
		return nil, fmt.Errorf("%s of ranks %d and %d", n.Target, ra, rb)
	}
	batch, err := broadcast(a.Sizes[:ra-2], b.Sizes[:rb-2])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", n.Target, err)
	}
	return one(metaOf(a.DType, append(slices.Clone(batch), a.Sizes[ra-2], b.Sizes[rb-2]))), nil
}
