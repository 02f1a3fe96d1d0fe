package passes

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// Meta rules for the shape, indexing and linear-algebra operators the decompositions in
// decomp_index*.go call (core ones, and non-core ones they leave for another rule).

func init() {
	// diagonal.default's own rule is infer.go's; its copy form has the same result.
	registerInfer(inferDiagonal, "aten.diagonal_copy.default")
	registerInfer(inferDiag, "aten.diag.default")
	registerInfer(inferDiagEmbed, "aten.diag_embed.default")
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) { // vdot of two vectors: a 0-d tensor
		x, err := argMeta(n, "self")
		if err != nil {
			return nil, err
		}
		y, err := argMeta(n, "other")
		if err != nil {
			return nil, err
		}
		return one(metaOf(ir.PromoteTypes(x.DType, y.DType), nil)), nil
	}, "aten.vdot.default")
}

// diagSize is the length of the offset diagonal of dims of sizes a and b.
func diagSize(a, b, offset int64) int64 {
	if offset >= 0 {
		return max(min(a, b-offset), 0)
	}
	return max(min(a+offset, b), 0)
}

// inferDiagonal: the two dims go, the diagonal's length is appended.
func inferDiagonal(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	r := len(m.Sizes)
	d1, err := normDim(n.IntArg("dim1", 0), r)
	if err != nil {
		return nil, err
	}
	d2, err := normDim(n.IntArg("dim2", 1), r)
	if err != nil {
		return nil, err
	}
	if d1 == d2 || r < 2 {
		return nil, fmt.Errorf("%s over dims %d and %d of rank %d", n.Target, d1, d2, r)
	}
	if !m.Sizes[d1].IsStatic() || !m.Sizes[d2].IsStatic() {
		return nil, fmt.Errorf("%s of a symbolic dim", n.Target)
	}
	var out []ir.Dim
	for i, d := range m.Sizes {
		if i != d1 && i != d2 {
			out = append(out, d)
		}
	}
	out = append(out, ir.Dim{Size: diagSize(m.Sizes[d1].Size, m.Sizes[d2].Size, n.IntArg("offset", 0))})
	return one(metaOf(m.DType, out)), nil
}

// inferDiag: a vector of n makes an (n+|k|)² matrix, a matrix gives its k-th diagonal.
func inferDiag(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	if !m.IsStatic() {
		return nil, fmt.Errorf("%s of symbolic sizes", n.Target)
	}
	k := n.IntArg("diagonal", 0)
	switch len(m.Sizes) {
	case 1:
		s := m.Sizes[0].Size + max(k, -k)
		return one(metaOf(m.DType, []ir.Dim{{Size: s}, {Size: s}})), nil
	case 2:
		return one(metaOf(m.DType, []ir.Dim{{Size: diagSize(m.Sizes[0].Size, m.Sizes[1].Size, k)}})), nil
	}
	return nil, fmt.Errorf("%s of a %d-d tensor", n.Target, len(m.Sizes))
}

// inferDiagEmbed: the last dim, grown by |offset|, is placed at dim1 and dim2.
func inferDiagEmbed(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	r := len(m.Sizes)
	if r == 0 || !m.Sizes[r-1].IsStatic() {
		return nil, fmt.Errorf("%s of a 0-d tensor or a symbolic last dim", n.Target)
	}
	d1, err := normDim(n.IntArg("dim1", -2), r+1)
	if err != nil {
		return nil, err
	}
	d2, err := normDim(n.IntArg("dim2", -1), r+1)
	if err != nil {
		return nil, err
	}
	if d1 == d2 {
		return nil, fmt.Errorf("%s over one dim twice", n.Target)
	}
	k := n.IntArg("offset", 0)
	last := ir.Dim{Size: m.Sizes[r-1].Size + max(k, -k)}
	rest := slices.Clone(m.Sizes[:r-1])
	out := make([]ir.Dim, 0, r+1)
	for i := 0; i <= r; i++ {
		if i == d1 || i == d2 {
			out = append(out, last)
			continue
		}
		out = append(out, rest[0])
		rest = rest[1:]
	}
	return one(metaOf(m.DType, out)), nil
}
