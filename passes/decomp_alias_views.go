package passes

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// View-like CompositeImplicitAutograd operators that torch.export cannot keep whole
// (unpreservableCIA): ATen writes each as another view (transpose, permute, diagonal,
// unsqueeze, view) or as its argument itself, and the trace records only what that call
// records — nothing at all when the composite returns self (atleast_1d of a matrix, real of a
// real tensor), in which case the readers read the argument.
//
// Complex inputs are where these operators differ from the real case: mH, conj and matrix_H
// conjugate (a conjugate view, aten._conj), real takes view_as_real, conj_physical calls
// _conj_physical and resolve_conj materialises a conjugate bit etgo does not track. None of
// those is core ATen, so those nodes are refused by name rather than given a graph the
// official conversion would not give.

func init() {
	registerRule(adjointRule(true), "aten.mT.default")
	registerRule(adjointRule(false), "aten.mH.default", "aten.adjoint.default")
	registerRule(matrixH, "aten.matrix_H.default")
	registerRule(numpyT, "aten.numpy_T.default")
	registerRule(movedimRule, "aten.movedim.int", "aten.movedim.intlist")
	registerRule(ravel, "aten.ravel.default")
	registerRule(atleast(1), "aten.atleast_1d.default")
	registerRule(atleast(2), "aten.atleast_2d.default")
	registerRule(atleast(3), "aten.atleast_3d.default")
	registerRule(linalgDiagonal, "aten.linalg_diagonal.default")
	registerRule(identityUnlessComplex("view_as_real and select", "aten.view_as_real.default"), "aten.real.default")
	registerRule(identityUnlessComplex("a conjugate view", "aten._conj.default"), "aten.conj.default")
	registerRule(identityUnlessComplex("a physical conjugate", "aten._conj_physical.default"), "aten.conj_physical.default")
	registerRule(identityUnlessComplex("a copy when the conjugate bit is set, which etgo does not track", "aten._resolve_conj.default"), "aten.resolve_conj.default")
	registerRule(resolveNeg, "aten.resolve_neg.default")
	registerRule(positive, "aten.positive.default")
}

// notEdgeComplex refuses a complex input whose decomposition needs an operator outside core ATen.
func notEdgeComplex(n *ir.Node, x *ir.Value, why, op string) error {
	return fmt.Errorf("%w: %s of a %s tensor decomposes to %s (%s), which is not core ATen",
		ErrNotEdge, n.Target, x.Meta.DType, op, why)
}

// adjointRule is ATen's _adjoint (mT with transpose, mH and adjoint without): a 0-d tensor is
// returned itself, a 1-D one refused, anything else transposed over its last two dims — and,
// without transpose, conjugated when complex.
func adjointRule(transpose bool) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		switch r := len(x.Meta.Sizes); {
		case r == 1:
			return fmt.Errorf("%s is only supported on matrices or batches of matrices, not a 1-D tensor", n.Target)
		case !transpose && x.Meta.DType.IsComplex():
			return notEdgeComplex(n, x, "the transpose conjugated", "aten._conj.default")
		case r == 0:
			return b.Replace(x)
		}
		return b.Replace(b.Call("aten.transpose.int", T("self", x), I("dim0", -2), I("dim1", -1)))
	}
}

// matrix_H: a matrix transposed (conjugated when complex), a 0-d tensor itself; other ranks
// are refused, as ATen refuses them.
func matrixH(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	r := len(x.Meta.Sizes)
	switch {
	case r != 2 && r != 0:
		return fmt.Errorf("%s is only supported on matrices (2-D tensors), not a %d-D tensor", n.Target, r)
	case x.Meta.DType.IsComplex():
		return notEdgeComplex(n, x, "the transpose conjugated", "aten._conj.default")
	case r == 0:
		return b.Replace(x)
	}
	return b.Replace(b.Call("aten.transpose.int", T("self", x), I("dim0", -2), I("dim1", -1)))
}

// numpy_T (x.T) reverses every dim with one permute, whatever the rank.
func numpyT(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	r := len(x.Meta.Sizes)
	dims := make([]int64, r)
	for i := range dims {
		dims[i] = int64(r - 1 - i)
	}
	return b.Replace(b.Call("aten.permute.default", T("self", x), Is("dims", dims...)))
}

// movedim(x, source, destination): an alias of a 0-d tensor; otherwise one permute that puts
// each source dim at its destination and the other dims, in order, in the places left.
func movedimRule(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	var src, dst []int64
	if n.Target == "aten.movedim.int" {
		src, dst = []int64{n.IntArg("source", 0)}, []int64{n.IntArg("destination", 0)}
	} else {
		src, dst = n.IntsArg("source", nil), n.IntsArg("destination", nil)
	}
	if len(src) != len(dst) {
		return fmt.Errorf("%s: source (%d dims) and destination (%d dims) differ in length", n.Target, len(src), len(dst))
	}
	r := len(x.Meta.Sizes)
	norm := func(ds []int64) ([]int, error) {
		out := make([]int, len(ds))
		for i, d := range ds {
			k, err := normDim(d, r)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", n.Target, err)
			}
			if slices.Contains(out[:i], k) {
				return nil, fmt.Errorf("%s: repeated dim %d", n.Target, d)
			}
			out[i] = k
		}
		return out, nil
	}
	s, err := norm(src)
	if err != nil {
		return err
	}
	d, err := norm(dst)
	if err != nil {
		return err
	}
	if r == 0 {
		return b.Replace(b.Call("aten.alias.default", T("self", x)))
	}
	order := make([]int64, r)
	placed, moved := make([]bool, r), make([]bool, r)
	for i := range s {
		order[d[i]] = int64(s[i])
		placed[d[i]], moved[s[i]] = true, true
	}
	next := 0
	for pos := range order {
		if placed[pos] {
			continue
		}
		for moved[next] {
			next++
		}
		order[pos] = int64(next)
		next++
	}
	return b.Replace(b.Call("aten.permute.default", T("self", x), Is("dims", order...)))
}

// ravel(x) = x.contiguous().view(-1): a clone first only when x is not contiguous.
func ravel(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	if !hasLayout(b.st, x, memoryFormatContiguous) {
		x = b.Call("aten.clone.default", T("self", x),
			ir.Arg{Name: "memory_format", Kind: ir.ArgMemoryFormat, Int: memoryFormatContiguous, KwargOnly: true})
	}
	return b.Replace(b.Call("aten.view.default", T("self", x), Is("size", -1)))
}

// atleast(k) is atleast_kd: a tensor of rank ≥ k itself; a 0-d one reshaped to k ones; a vector
// unsqueezed in front (and, for 3-D, behind); a matrix, for 3-D, unsqueezed behind.
func atleast(k int) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		r := len(x.Meta.Sizes)
		switch {
		case r >= k:
			return b.Replace(x)
		case r == 0:
			return b.Replace(b.Call("aten.reshape.default", T("self", x), Is("shape", repeat(1, k)...)))
		}
		if r == 1 {
			x = b.Call("aten.unsqueeze.default", T("self", x), I("dim", 0))
		}
		if k == 3 {
			x = b.Call("aten.unsqueeze.default", T("self", x), I("dim", -1))
		}
		return b.Replace(x)
	}
}

// linalg_diagonal(A, offset, dim1, dim2) = A.diagonal(offset, dim1, dim2), the dims as given.
func linalgDiagonal(b *Builder, n *ir.Node) error {
	x := n.TensorArg("A")
	if x == nil || x.Meta == nil {
		return fmt.Errorf("%s: A is not a tensor", n.Target)
	}
	return b.Replace(b.Call("aten.diagonal.default", T("self", x),
		I("offset", n.IntArg("offset", 0)), I("dim1", n.IntArg("dim1", -2)), I("dim2", n.IntArg("dim2", -1))))
}

// identityUnlessComplex is a composite that returns a non-complex argument itself (real,
// conj, conj_physical, resolve_conj) and, for a complex one, needs op, outside core ATen.
func identityUnlessComplex(why, op string) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		if x.Meta.DType.IsComplex() {
			return notEdgeComplex(n, x, why, op)
		}
		return b.Replace(x)
	}
}

// resolve_neg returns its argument unless its negative bit is set, which only a _neg_view
// (outside core ATen, never in an Edge graph) sets.
func resolveNeg(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	if x.Producer != nil && x.Producer.Target == "aten._neg_view.default" {
		return fmt.Errorf("%w: %s of a negative view (aten._neg_view.default), which is not core ATen", ErrNotEdge, n.Target)
	}
	return b.Replace(x)
}

// positive(x) is x itself; ATen refuses a bool tensor.
func positive(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	if x.Meta.DType == ir.Bool {
		return fmt.Errorf("%s: the unary + operator on a bool tensor is not supported", n.Target)
	}
	return b.Replace(x)
}
