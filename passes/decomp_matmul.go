package passes

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// Matrix products outside core ATen: matmul's dispatch over ranks (torch/_decomp's matmul,
// the same algorithm as ATen's _matmul_impl), mv and dot.

func init() {
	registerRule(matmul, "aten.matmul.default")
	registerRule(mv, "aten.mv.default")
	registerRule(dot, "aten.dot.default")
}

// mv(A, x) = (A * x).sum(dim=1).
func mv(b *Builder, n *ir.Node) error {
	a, x := self(b, n), n.TensorArg("vec")
	prod := b.Call("aten.mul.Tensor", T("self", a), T("other", x))
	return b.Replace(b.Call("aten.sum.dim_IntList", T("self", prod), Is("dim", 1)))
}

// dot(x, y) = (x * y).sum(), whose sum torch's table writes as sum.dim_IntList over no dims.
func dot(b *Builder, n *ir.Node) error {
	x, y := self(b, n), n.TensorArg("tensor")
	prod := b.Call("aten.mul.Tensor", T("self", x), T("other", y))
	return b.Replace(b.Call("aten.sum.dim_IntList", T("self", prod), Is("dim")))
}

func staticSizes(vs ...*ir.Value) error {
	for _, v := range vs {
		if v == nil || v.Meta == nil {
			return fmt.Errorf("an operand is not a tensor")
		}
		if !v.Meta.IsStatic() {
			return fmt.Errorf("operand %s has symbolic sizes %s", v.Name, v.Meta)
		}
	}
	return nil
}

func matmul(b *Builder, n *ir.Node) error {
	t1, t2 := n.TensorArg("self"), n.TensorArg("other")
	if err := staticSizes(t1, t2); err != nil {
		return fmt.Errorf("matmul: %w", err)
	}
	d1, d2 := len(t1.Meta.Sizes), len(t2.Meta.Sizes)
	s1, s2 := sizesOf(t1.Meta), sizesOf(t2.Meta)
	switch {
	case d1 == 0 || d2 == 0:
		return fmt.Errorf("matmul of a 0-d tensor")
	case d1 == 1 && d2 == 1:
		return b.Replace(b.Call("aten.dot.default", T("self", t1), T("tensor", t2)))
	case d1 == 2 && d2 == 1:
		return b.Replace(b.Call("aten.mv.default", T("self", t1), T("vec", t2)))
	case d1 == 1 && d2 == 2:
		u := b.Call("aten.unsqueeze.default", T("self", t1), I("dim", 0))
		mm := b.Call("aten.mm.default", T("self", u), T("mat2", t2))
		return b.Replace(b.Call("aten.squeeze.dims", T("self", mm), Is("dim", 0)))
	case d1 == 2 && d2 == 2:
		return b.Replace(b.Call("aten.mm.default", T("self", t1), T("mat2", t2)))
	case shouldFold(b.st, t1, t2):
		// The batch of the larger operand folds into its rows for one mm (or mv). A vector
		// times a batch of matrices folds the batch's transpose (tensor2.mT), with the
		// vector as the right operand.
		f1, f2 := t1, t2
		if d2 > d1 {
			f1 = b.Call("aten.permute.default", T("self", t2), Is("dims", swapPerm(d2, d2-2, d2-1)...))
			f2 = t1
		}
		if b.Err() != nil {
			return b.Err()
		}
		fs := sizesOf(f1.Meta)
		out := slices.Clone(fs[:len(fs)-1])
		folded := int64(1)
		for _, s := range out {
			folded *= s
		}
		flat := b.Call("aten.reshape.default", T("self", f1), Is("shape", folded, fs[len(fs)-1]))
		if len(f2.Meta.Sizes) == 2 {
			out = append(out, f2.Meta.Sizes[1].Size)
			mm := b.Call("aten.mm.default", T("self", flat), T("mat2", f2))
			return b.Replace(b.Call("aten._unsafe_view.default", T("self", mm), Is("size", out...)))
		}
		mvr := b.Call("aten.mv.default", T("self", flat), T("vec", f2))
		return b.Replace(b.Call("aten._unsafe_view.default", T("self", mvr), Is("size", out...)))
	}
	nRows, m1 := int64(1), s1[d1-1]
	if d1 > 1 {
		nRows = s1[d1-2]
	}
	m2, p := s2[d2-1], int64(1)
	if d2 > 1 {
		m2, p = s2[d2-2], s2[d2-1]
	}
	var batch1, batch2 []int64
	if d1 > 2 {
		batch1 = s1[:d1-2]
	}
	if d2 > 2 {
		batch2 = s2[:d2-2]
	}
	batchDims, err := broadcast(dimsOf(batch1), dimsOf(batch2))
	if err != nil {
		return fmt.Errorf("matmul: %w", err)
	}
	batch := sizesOf(&ir.TensorMeta{Sizes: batchDims})
	product := int64(1)
	for _, s := range batch {
		product *= s
	}
	e1 := b.Call("aten.expand.default", T("self", t1), Is("size", append(slices.Clone(batch), nRows, m1)...))
	e1 = b.Call("aten.reshape.default", T("self", e1), Is("shape", product, nRows, m1))
	vector := d2 == 1
	var e2 *ir.Value
	if vector {
		e2 = b.Call("aten.expand.default", T("self", t2), Is("size", append(slices.Clone(batch), m2)...))
		e2 = b.Call("aten.reshape.default", T("self", e2), Is("shape", product, m2))
		e2 = b.Call("aten.unsqueeze.default", T("self", e2), I("dim", 2))
	} else {
		e2 = b.Call("aten.expand.default", T("self", t2), Is("size", append(slices.Clone(batch), m2, p)...))
		e2 = b.Call("aten.reshape.default", T("self", e2), Is("shape", product, m2, p))
	}
	out := slices.Clone(batch)
	if d1 > 1 {
		out = append(out, nRows)
	}
	if d2 > 1 {
		out = append(out, p)
	}
	r := b.Call("aten.bmm.default", T("self", e1), T("mat2", e2))
	if vector {
		r = b.Call("aten.squeeze.dims", T("self", r), Is("dim", -1))
	}
	return b.Replace(b.Call("aten.view.default", T("self", r), Is("size", out...)))
}

func dimsOf(sizes []int64) []ir.Dim {
	out := make([]ir.Dim, len(sizes))
	for i, s := range sizes {
		out[i] = ir.Dim{Size: s}
	}
	return out
}

// shouldFold is torch's should_fold without gradients: the larger operand has ≥ 3 dims, the
// other ≤ 2, tensor1 is not the matrix, and the larger one is contiguous (size-1 dims aside).
func shouldFold(st *strides, tensor1, tensor2 *ir.Value) bool {
	t1, t2 := tensor1, tensor2
	if len(tensor1.Meta.Sizes) < len(tensor2.Meta.Sizes) {
		t1, t2 = tensor2, tensor1
	}
	if !(len(t1.Meta.Sizes) >= 3 && len(t2.Meta.Sizes) <= 2) || len(tensor1.Meta.Sizes) == 2 {
		return false
	}
	sizes := sizesOf(t1.Meta)
	numel := int64(1)
	for _, s := range sizes {
		numel *= s
	}
	if numel == 0 {
		return true
	}
	got := st.of(t1)
	expect := make([]int64, len(sizes))
	acc := int64(1)
	for i := len(sizes) - 1; i >= 0; i-- {
		expect[i] = acc
		if i > 0 {
			acc *= sizes[i]
		}
	}
	for i, s := range sizes {
		if s != 1 && got[i] != expect[i] {
			return false
		}
	}
	return true
}

func init() {
	registerRule(linear, "aten.linear.default")
}

// linear(x, w, b) as ATen's composite linear computes it: addmm(b, x, wᵀ) for a matrix with a
// bias; for a contiguous input with a 1-d bias, the input flattened to a matrix, addmm, and the
// result viewed back (_flatten_nd_linear); otherwise matmul(x, wᵀ), plus the bias.
func linear(b *Builder, n *ir.Node) error {
	x, err := tensorIn(n, "input")
	if err != nil {
		return err
	}
	w, err := tensorIn(n, "weight")
	if err != nil {
		return err
	}
	bias := n.TensorArg("bias")
	rank := len(x.Meta.Sizes)
	if len(w.Meta.Sizes) != 2 || rank < 1 {
		return fmt.Errorf("linear of a %d-D input by a %d-D weight", rank, len(w.Meta.Sizes))
	}
	wt := func() *ir.Value { return b.Call("aten.permute.default", T("self", w), Is("dims", 1, 0)) }
	if rank == 2 && bias != nil {
		t := wt()
		return b.Replace(b.Call("aten.addmm.default", T("self", bias), T("mat1", x), T("mat2", t)))
	}
	if bias != nil && len(bias.Meta.Sizes) == 1 && hasLayout(b.st, x, memoryFormatContiguous) && x.Meta.Sizes[rank-1].IsStatic() {
		// Sizes are SymInts: the leading dims multiply into the flattened one.
		lead := SizeArg{Size: 1}
		for i := 0; i < rank-1; i++ {
			lead = b.MulSize(lead, b.DimSize(x, i))
		}
		flat := b.Call("aten.reshape.default", T("self", x), Sizes("shape", lead, b.DimSize(x, rank-1)))
		mm := b.Call("aten.addmm.default", T("self", bias), T("mat1", flat), T("mat2", wt()))
		var out []SizeArg
		for i := 0; i < rank-1; i++ {
			out = append(out, b.DimSize(x, i))
		}
		out = append(out, SizeArg{Size: w.Meta.Sizes[0].Size})
		return b.Replace(b.Call("aten.view.default", T("self", mm), Sizes("size", out...)))
	}
	if !x.Meta.IsStatic() {
		return fmt.Errorf("linear of a %d-D input with symbolic dims %s is not decomposed yet", rank, x.Meta)
	}
	y := b.Call("aten.matmul.default", T("self", x), T("other", wt()))
	if bias != nil {
		y = b.Call("aten.add.Tensor", T("self", y), T("other", bias))
	}
	return b.Replace(y)
}
