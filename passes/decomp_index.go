package passes

import (
	"fmt"
	"math"
	"slices"

	"github.com/etgo/etgo/ir"
)

// Indexing, masking and creation operators outside core ATen (and the core ones torch's table
// still decomposes, such as select_scatter), written after torch's references and
// decompositions: the same core operators in the same order, with the arguments torch passes.

func init() {
	registerRule(trilu(false), "aten.tril.default")
	registerRule(trilu(true), "aten.triu.default")
	registerRule(diagRule, "aten.diag.default")
	registerRule(diagEmbed, "aten.diag_embed.default")
	registerRule(diagflat, "aten.diagflat.default")
	registerRule(traceRule, "aten.trace.default")
	registerRule(takeRule, "aten.take.default")
	registerRule(takeAlongDim, "aten.take_along_dim.default")
	registerRule(selectScatter, "aten.select_scatter.default")
	registerRule(indexCopy, "aten.index_copy.default")
	registerRule(indexAdd, "aten.index_add.default")
	registerRule(indexFill, "aten.index_fill.int_Scalar", "aten.index_fill.int_Tensor")
	registerRule(unsafeMaskedIndex, "aten._unsafe_masked_index.default")
	registerRule(unsafeMaskedIndexPutAccumulate, "aten._unsafe_masked_index_put_accumulate.default")
	registerRule(newEmpty, "aten.new_empty.default")
	registerRule(fillTensor, "aten.fill.Tensor")
	registerRule(oneHot, "aten.one_hot.default")
	registerRule(linspaceRule, "aten.linspace.default", "aten.linspace.Tensor_Tensor", "aten.linspace.Tensor_Scalar", "aten.linspace.Scalar_Tensor")
	registerRule(logspaceRule, "aten.logspace.default", "aten.logspace.Tensor_Tensor", "aten.logspace.Tensor_Scalar", "aten.logspace.Scalar_Tensor")
}

// maskTensor is torch._prims_common.mask_tensor: where(mask, t, 0), or mask ∧ t for booleans.
func maskTensor(b *Builder, mask, t *ir.Value) *ir.Value {
	if t.Meta.DType == ir.Bool {
		return b.Call("aten.logical_and.default", T("self", mask), T("other", t))
	}
	return b.Call("aten.where.self", T("condition", mask), T("self", t), T("other", scalarTensor(b, I("", 0), t)))
}

// contiguousOf is x.contiguous(): x itself when it is laid out densely, else a copy.
func contiguousOf(b *Builder, x *ir.Value) *ir.Value {
	if hasLayout(b.st, x, memoryFormatContiguous) {
		return x
	}
	return cloneContiguous(b, x)
}

// tril/triu(x, diagonal) (torch._refs): the mask arange(w)[None, :] - arange(h)[:, None]
// compared with diagonal (≤ for tril, ≥ for triu) selects x, zeros elsewhere.
func trilu(upper bool) rule {
	return func(b *Builder, n *ir.Node) error {
		x, err := staticSelf(b, n)
		if err != nil {
			return err
		}
		r := len(x.Meta.Sizes)
		if r < 2 {
			return fmt.Errorf("%s of a %d-d tensor", n.Target, r)
		}
		h, w := x.Meta.Sizes[r-2].Size, x.Meta.Sizes[r-1].Size
		cols := b.Call("aten.unsqueeze.default", T("self", arangeSpan(b, 0, w, nil)), I("dim", -2))
		rows := b.Call("aten.unsqueeze.default", T("self", arangeSpan(b, 0, h, nil)), I("dim", -1))
		d := b.Call("aten.sub.Tensor", T("self", cols), T("other", rows))
		cmp := "aten.le.Scalar"
		if upper {
			cmp = "aten.ge.Scalar"
		}
		mask := b.Call(cmp, T("self", d), I("other", n.IntArg("diagonal", 0)))
		return b.Replace(maskTensor(b, mask, x))
	}
}

// diag(x, diagonal): a vector becomes the matrix with it on that diagonal (diag_embed), a
// matrix gives that diagonal (diagonal_copy).
func diagRule(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	offset := I("offset", n.IntArg("diagonal", 0))
	switch len(x.Meta.Sizes) {
	case 1:
		return b.Replace(b.Call("aten.diag_embed.default", T("self", x), offset))
	case 2:
		return b.Replace(b.Call("aten.diagonal_copy.default", T("self", x), offset))
	}
	return fmt.Errorf("diag of a %d-d tensor", len(x.Meta.Sizes))
}

// diagflat(x, offset) = diag(x.contiguous().view(-1), offset) (ATen).
func diagflat(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	v := b.Call("aten.view.default", T("self", contiguousOf(b, x)), Is("size", -1))
	return b.Replace(b.Call("aten.diag.default", T("self", v), I("diagonal", n.IntArg("offset", 0))))
}

// trace(x) = sum(diag(x, 0)).
func traceRule(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	if len(x.Meta.Sizes) != 2 {
		return fmt.Errorf("trace of a %d-d tensor", len(x.Meta.Sizes))
	}
	d := b.Call("aten.diag.default", T("self", x), I("diagonal", 0))
	return b.Replace(b.Call("aten.sum.dim_IntList", T("self", d), Is("dim")))
}

// diag_embed(t, offset, dim1, dim2) (torch._refs): t, padded with |offset| zeros at the end or
// start of its last dim, gets a unit dim at dim1 and its last dim moved to dim2; the mask
// arange(n) == arange(offset, n + offset)[:, None], reshaped to the two dims, keeps it.
func diagEmbed(b *Builder, n *ir.Node) error {
	t, err := staticSelf(b, n)
	if err != nil {
		return err
	}
	rank := len(t.Meta.Sizes) + 1
	if rank < 2 {
		return fmt.Errorf("diag_embed of a 0-d tensor")
	}
	d1, err := normDim(n.IntArg("dim1", -2), rank)
	if err != nil {
		return err
	}
	d2, err := normDim(n.IntArg("dim2", -1), rank)
	if err != nil {
		return err
	}
	offset := n.IntArg("offset", 0)
	if d1 > d2 {
		d1, d2, offset = d2, d1, -offset
	}
	if d1 == d2 {
		return fmt.Errorf("diag_embed over one dim twice")
	}
	sizes := sizesOf(t.Meta)
	last := sizes[len(sizes)-1]
	if offset != 0 {
		abs := max(offset, -offset)
		zshape := slices.Clone(sizes)
		zshape[len(zshape)-1] = abs
		z := zerosOf(b, zshape, t.Meta.DType)
		pair := []*ir.Value{z, t}
		if offset < 0 {
			pair = []*ir.Value{t, z}
		}
		t = b.Call("aten.cat.default", Ts("tensors", pair...), I("dim", -1))
		last += abs
	}
	t = b.Call("aten.unsqueeze.default", T("self", t), I("dim", int64(d1)))
	t = b.Call("aten.permute.default", T("self", t), Is("dims", movedimPerm(rank, rank-1, d2)...))
	i64 := ir.Int64
	a := arangeSpan(b, 0, last, &i64)
	r := arangeSpan(b, offset, last+offset, &i64)
	cond := b.Call("aten.eq.Tensor", T("self", a), T("other", b.Call("aten.unsqueeze.default", T("self", r), I("dim", -1))))
	shape := repeat(1, rank)
	shape[d1], shape[d2] = last, last
	cond = b.Call("aten.reshape.default", T("self", cond), Is("shape", shape...))
	return b.Replace(maskTensor(b, cond, t))
}

// movedimPerm is the permutation movedim(src, dst) applies to a rank-r tensor: src lands at
// dst, the other dims keep their order.
func movedimPerm(r, src, dst int) []int64 {
	rest := make([]int64, 0, r)
	for i := 0; i < r; i++ {
		if i != src {
			rest = append(rest, int64(i))
		}
	}
	return slices.Insert(rest, dst, int64(src))
}

// take(x, index) = x.reshape(-1)[index]. A 0-d index is read as a Python int, which torch
// cannot trace (a data-dependent value).
func takeRule(b *Builder, n *ir.Node) error {
	x := self(b, n)
	idx := n.TensorArg("index")
	if b.Err() != nil || idx == nil || idx.Meta == nil {
		return fmt.Errorf("take: index is not a tensor")
	}
	if len(idx.Meta.Sizes) == 0 {
		return fmt.Errorf("take with a 0-d index reads its value (a data-dependent index) and is not supported")
	}
	flat := b.Call("aten.reshape.default", T("self", x), Is("shape", -1))
	return b.Replace(b.Call("aten.index.Tensor", T("self", flat), OptTs("indices", idx)))
}

// take_along_dim(x, indices, dim) (ATen): without a dim, gather from the flattened tensors;
// with one, indices and x are broadcast to each other's sizes (but along dim), the indices
// wrapped modulo the dim's size, and gathered.
func takeAlongDim(b *Builder, n *ir.Node) error {
	x, err := staticSelf(b, n)
	if err != nil {
		return err
	}
	idx := n.TensorArg("indices")
	if err := staticSizes(idx); err != nil {
		return fmt.Errorf("take_along_dim: %w", err)
	}
	a := n.Arg("dim")
	if a == nil || a.Kind != ir.ArgInt {
		fx := b.Call("aten.view.default", T("self", x), Is("size", -1))
		fi := b.Call("aten.view.default", T("self", idx), Is("size", -1))
		return b.Replace(b.Call("aten.gather.default", T("self", fx), I("dim", 0), T("index", fi)))
	}
	r := len(x.Meta.Sizes)
	if len(idx.Meta.Sizes) != r {
		return fmt.Errorf("take_along_dim of a %d-d tensor by %d-d indices", r, len(idx.Meta.Sizes))
	}
	d, err := normDim(a.Int, r)
	if err != nil {
		return err
	}
	xs, is := slices.Clone(x.Meta.Sizes), slices.Clone(idx.Meta.Sizes)
	xs[d] = idx.Meta.Sizes[d]
	ishape, err := broadcast(xs, idx.Meta.Sizes)
	if err != nil {
		return err
	}
	is[d] = x.Meta.Sizes[d]
	xshape, err := broadcast(is, x.Meta.Sizes)
	if err != nil {
		return err
	}
	bi := b.Call("aten.expand.default", T("self", idx), sizeArg("size", ishape))
	bx := b.Call("aten.expand.default", T("self", x), sizeArg("size", xshape))
	bi = b.Call("aten.remainder.Scalar", T("self", bi), I("other", xshape[d].Size))
	return b.Replace(b.Call("aten.gather.default", T("self", bx), I("dim", int64(d)), T("index", bi)))
}

// select_scatter(x, src, dim, index) (torch._refs): where(arange(size)[view along dim] ==
// index, src unsqueezed at dim and expanded to x, x).
func selectScatter(b *Builder, n *ir.Node) error {
	x, err := staticSelf(b, n)
	if err != nil {
		return err
	}
	src := n.TensorArg("src")
	if src == nil {
		return fmt.Errorf("select_scatter: src is not a tensor")
	}
	r := len(x.Meta.Sizes)
	d, err := normDim(n.IntArg("dim", 0), r)
	if err != nil {
		return err
	}
	index := n.IntArg("index", 0)
	size := x.Meta.Sizes[d].Size
	if index < 0 {
		index += size
	}
	shape := repeat(1, r)
	shape[d] = -1
	m := b.Call("aten.view.default", T("self", arangeSpan(b, 0, size, nil)), Is("size", shape...))
	mask := b.Call("aten.eq.Scalar", T("self", m), I("other", index))
	s := b.Call("aten.unsqueeze.default", T("self", src), I("dim", int64(d)))
	s = b.Call("aten.expand.default", T("self", s), sizeArg("size", x.Meta.Sizes))
	return b.Replace(b.Call("aten.where.self", T("condition", mask), T("self", s), T("other", x)))
}

// indexArgs are index_copy/index_add's x, canonical dim, index and source.
func indexArgs(b *Builder, n *ir.Node) (x *ir.Value, dim int, index, source *ir.Value, err error) {
	x = self(b, n)
	if b.Err() != nil {
		return nil, 0, nil, nil, b.Err()
	}
	index, source = n.TensorArg("index"), n.TensorArg("source")
	if index == nil || index.Meta == nil || source == nil || source.Meta == nil {
		return nil, 0, nil, nil, fmt.Errorf("%s: index or source is not a tensor", n.Target)
	}
	if len(index.Meta.Sizes) > 1 {
		return nil, 0, nil, nil, fmt.Errorf("%s with a %d-d index", n.Target, len(index.Meta.Sizes))
	}
	dim, err = normDim(n.IntArg("dim", 0), len(x.Meta.Sizes))
	return x, dim, index, source, err
}

// indexPutAlong is x[(:,)*dim + (index,)] = values, accumulated or not, as torch's index_copy
// and index_add decompositions write it: a 0-d x is treated as a vector and squeezed back.
func indexPutAlong(b *Builder, x *ir.Value, dim int, index, values *ir.Value, accumulate bool) *ir.Value {
	zeroDim := len(x.Meta.Sizes) == 0
	if zeroDim {
		x = b.Call("aten.unsqueeze.default", T("self", x), I("dim", 0))
	}
	indices := make([]*ir.Value, dim+1)
	indices[dim] = index
	out := b.Call("aten.index_put.default", T("self", x), OptTs("indices", indices...), T("values", values),
		Bo("accumulate", accumulate))
	if zeroDim {
		out = b.Call("aten.squeeze.dims", T("self", out), Is("dim", 0))
	}
	return out
}

// index_copy(x, dim, index, source) = index_put(x, (None,)*dim + (index,), source), a 0-d
// index unsqueezed first (torch._decomp).
func indexCopy(b *Builder, n *ir.Node) error {
	x, dim, index, source, err := indexArgs(b, n)
	if err != nil {
		return err
	}
	if len(index.Meta.Sizes) == 0 {
		index = b.Call("aten.unsqueeze.default", T("self", index), I("dim", 0))
	}
	return b.Replace(indexPutAlong(b, x, dim, index, source, false))
}

// index_add(x, dim, index, source, alpha) = index_put(x, …, source * alpha, accumulate=True),
// the product only when alpha is not 1 (torch._decomp).
func indexAdd(b *Builder, n *ir.Node) error {
	x, dim, index, source, err := indexArgs(b, n)
	if err != nil {
		return err
	}
	if a := n.Arg("alpha"); a != nil && (a.Kind == ir.ArgInt || a.Kind == ir.ArgFloat) && !(a.Kind == ir.ArgInt && a.Int == 1) && !(a.Kind == ir.ArgFloat && a.Float == 1) {
		source = b.Call("aten.mul.Tensor", T("self", source), Renamed(*a, "other"))
	}
	return b.Replace(indexPutAlong(b, x, dim, index, source, true))
}

// index_fill(x, dim, index, value) (torch._refs): a number value becomes a 0-d tensor of x's
// type; it is expanded to x's shape with index's length at dim and index_copied in; a 0-d x is
// treated as a vector, squeezed back and cloned.
func indexFill(b *Builder, n *ir.Node) error {
	x := self(b, n)
	index := n.TensorArg("index")
	value := n.Arg("value")
	if b.Err() != nil || index == nil || index.Meta == nil || value == nil {
		return fmt.Errorf("%s: index or value missing", n.Target)
	}
	if err := staticSizes(x, index); err != nil {
		return err
	}
	if len(x.Meta.Sizes) > 1 && !hasLayout(b.st, x, memoryFormatContiguous) {
		return fmt.Errorf("index_fill of a strided tensor (copy_strided) is not decomposed yet")
	}
	var v *ir.Value
	switch value.Kind {
	case ir.ArgTensor:
		v = value.Values[0]
		if v == nil || v.Meta == nil || len(v.Meta.Sizes) != 0 {
			return fmt.Errorf("index_fill with a value that is not a 0-d tensor")
		}
	case ir.ArgInt, ir.ArgFloat, ir.ArgBool:
		s := *value
		s.Name = "s"
		v = b.Call("aten.scalar_tensor.default", s, Dt("dtype", x.Meta.DType), layoutStrided(), deviceCPU(), pinMemoryFalse())
	default:
		return fmt.Errorf("index_fill with a symbolic value")
	}
	zeroDim := len(x.Meta.Sizes) == 0
	y := x
	if zeroDim {
		y = b.Call("aten.unsqueeze.default", T("self", x), I("dim", 0))
	}
	dim := n.IntArg("dim", 0)
	d, err := normDim(dim, len(y.Meta.Sizes))
	if err != nil {
		return err
	}
	shape := sizesOf(y.Meta)
	shape[d] = numelOf(sizesOf(index.Meta))
	v = b.Call("aten.expand.default", T("self", v), Is("size", shape...))
	out := b.Call("aten.index_copy.default", T("self", y), I("dim", dim), T("index", index), T("source", v))
	if zeroDim {
		out = b.Call("aten.squeeze.dims", T("self", out), Is("dim", 0))
		out = b.Call("aten.clone.default", T("self", out))
	}
	return b.Replace(out)
}

// castNumber is Python's conversion of a number to the type of a tensor of dtype (float(v) for
// floating tensors, int(v) for integer ones), as masked_fill's decomposition applies it.
func castNumber(a ir.Arg, dtype ir.DType) ir.Arg {
	switch {
	case dtype.IsFloat() && a.Kind == ir.ArgInt:
		return F(a.Name, float64(a.Int))
	case !dtype.IsFloat() && dtype != ir.Bool && a.Kind == ir.ArgFloat:
		return I(a.Name, int64(math.Trunc(a.Float)))
	}
	return a
}

// maskedIndices reads _unsafe_masked_index's mask and index list and clamps each index to
// [lo(size), size-1] of its dim.
func maskedIndices(b *Builder, n *ir.Node, x *ir.Value, lo func(size int64) int64) (*ir.Value, []*ir.Value, error) {
	mask := n.TensorArg("mask")
	a := n.Arg("indices")
	if mask == nil || a == nil || (a.Kind != ir.ArgOptionalTensors && a.Kind != ir.ArgTensors) {
		return nil, nil, fmt.Errorf("%s: mask or indices missing", n.Target)
	}
	if len(a.Values) > len(x.Meta.Sizes) {
		return nil, nil, fmt.Errorf("%s: %d indices for a %d-d tensor", n.Target, len(a.Values), len(x.Meta.Sizes))
	}
	indices := slices.Clone(a.Values)
	for i, idx := range indices {
		if idx == nil {
			continue
		}
		size := x.Meta.Sizes[i]
		if !size.IsStatic() {
			return nil, nil, fmt.Errorf("%s of a symbolic dim", n.Target)
		}
		indices[i] = b.Call("aten.clamp.default", T("self", idx), I("min", lo(size.Size)), I("max", size.Size-1))
	}
	return mask, indices, nil
}

// _unsafe_masked_index(x, mask, indices, fill) (torch._decomp): the indices clamped into x,
// x indexed by them, and fill where mask is false; an empty x gives fill in the result's shape.
func unsafeMaskedIndex(b *Builder, n *ir.Node) error {
	x, err := staticSelf(b, n)
	if err != nil {
		return err
	}
	fill := n.Arg("fill")
	if fill == nil {
		return fmt.Errorf("_unsafe_masked_index without a fill value")
	}
	if numelOf(sizesOf(x.Meta)) == 0 {
		out, err := result(n)
		if err != nil {
			return err
		}
		args := append([]ir.Arg{sizeArg("size", out.Meta.Sizes), Renamed(*fill, "fill_value")}, creationKwargs(n, x.Meta.DType)...)
		return b.Replace(b.Call("aten.full.default", args...))
	}
	mask, indices, err := maskedIndices(b, n, x, func(int64) int64 { return 0 })
	if err != nil {
		return err
	}
	got := b.Call("aten.index.Tensor", T("self", x), OptTs("indices", indices...))
	notMask := b.Call("aten.bitwise_not.default", T("self", mask))
	return b.Replace(b.Call("aten.masked_fill.Scalar", T("self", got), T("mask", notMask), castNumber(Renamed(*fill, "value"), x.Meta.DType)))
}

// _unsafe_masked_index_put_accumulate(x, mask, indices, values) (torch._decomp): the indices
// clamped into [-size, size-1], values zeroed where mask is false, accumulated into x.
func unsafeMaskedIndexPutAccumulate(b *Builder, n *ir.Node) error {
	x, err := staticSelf(b, n)
	if err != nil {
		return err
	}
	values := n.TensorArg("values")
	if values == nil || values.Meta == nil {
		return fmt.Errorf("_unsafe_masked_index_put_accumulate: values is not a tensor")
	}
	if numelOf(sizesOf(x.Meta)) == 0 {
		return b.Replace(b.Call("aten.clone.default", T("self", x)))
	}
	mask, indices, err := maskedIndices(b, n, x, func(size int64) int64 { return -size })
	if err != nil {
		return err
	}
	notMask := b.Call("aten.bitwise_not.default", T("self", mask))
	masked := b.Call("aten.masked_fill.Scalar", T("self", values), T("mask", notMask), castNumber(I("value", 0), values.Meta.DType))
	return b.Replace(b.Call("aten.index_put.default", T("self", x), OptTs("indices", indices...), T("values", masked), Bo("accumulate", true)))
}

// new_empty(x, size, …) = empty(size) with x's dtype unless one is given (torch._refs), which
// MemoryFormatOps writes as _empty_dim_order.
func newEmpty(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	size := n.Arg("size")
	if size == nil || (size.Kind != ir.ArgInts && size.Kind != ir.ArgSymInts) {
		return fmt.Errorf("new_empty: size is not a list of ints")
	}
	args := append([]ir.Arg{Renamed(*size, "size")}, creationKwargs(n, x.Meta.DType)...)
	args[len(args)-1] = ArgOr(n, "pin_memory", pinMemoryFalse())
	args[len(args)-1].KwargOnly = true
	return b.Replace(b.Call("aten.empty.memory_format", args...))
}

// fill(x, value: 0-d tensor) = copy(x, value) (torch._decomp).
func fillTensor(b *Builder, n *ir.Node) error {
	v := n.TensorArg("value")
	if v == nil || v.Meta == nil || len(v.Meta.Sizes) != 0 {
		return fmt.Errorf("fill with a value that is not a 0-d tensor")
	}
	return b.Replace(b.Call("aten.copy.default", T("self", self(b, n)), T("src", v)))
}

// allOf is torch.all(x) as torch's table writes it: not any(not x).
func allOf(b *Builder, x *ir.Value) *ir.Value {
	nx := b.Call("aten.logical_not.default", T("self", x))
	a := b.Call("aten.any.dims", T("self", nx), None("dim"), Bo("keepdim", false))
	return b.Call("aten.logical_not.default", T("self", a))
}

// assertAsync inserts _assert_async(cond, msg): a runtime check with no result.
func assertAsync(b *Builder, cond *ir.Value, msg string) {
	if b.Err() != nil {
		return
	}
	node := &ir.Node{Target: "aten._assert_async.msg", Args: []ir.Arg{T("self", cond), S("assert_msg", msg)},
		Outputs: []*ir.Value{nil}, StackTrace: b.at.StackTrace, ModuleStack: b.at.ModuleStack}
	node.Name = b.g.NewValue("_assert_async", nil, node).Name
	b.g.InsertBefore(b.at, node)
}

// one_hot(x, num_classes) (torch._decomp): two runtime checks that every class is in
// [0, num_classes), then x[..., None] == arange(num_classes) as int64. Without num_classes the
// count is x.max() + 1, a data-dependent size.
func oneHot(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	k := n.IntArg("num_classes", -1)
	if k == -1 {
		return fmt.Errorf("one_hot without num_classes has a data-dependent size (x.max() + 1)")
	}
	assertAsync(b, allOf(b, b.Call("aten.ge.Scalar", T("self", x), I("other", 0))), "one_hot: Class values must be non-negative.")
	assertAsync(b, allOf(b, b.Call("aten.lt.Scalar", T("self", x), I("other", k))), "one_hot: Class values must be smaller than num_classes.")
	u := b.Call("aten.unsqueeze.default", T("self", x), I("dim", -1))
	dt := x.Meta.DType
	eq := b.Call("aten.eq.Tensor", T("self", u), T("other", arangeSpan(b, 0, k, &dt)))
	return b.Replace(convertTo(b, eq, ir.Int64))
}

// convertTo is torch._refs' _maybe_convert_to_dtype: x itself when of dtype, else _to_copy.
func convertTo(b *Builder, x *ir.Value, dtype ir.DType) *ir.Value {
	if x.Meta.DType == dtype {
		return x
	}
	return b.Call("aten._to_copy.default", T("self", x), Dt("dtype", dtype))
}

// linspaceOf is torch._refs.linspace for the step counts etgo decomposes: tensor bounds are
// converted to float64 first; no step is an empty full; one step copies start into an empty
// tensor (a tensor start) or fills with it.
func linspaceOf(b *Builder, start, end ir.Arg, steps int64, dtype ir.DType) (*ir.Value, error) {
	bound := func(a ir.Arg) ir.Arg {
		if a.Kind == ir.ArgTensor && a.Values[0] != nil && a.Values[0].Meta != nil {
			a.Values = []*ir.Value{convertTo(b, a.Values[0], ir.Float64)}
		}
		return a
	}
	start, end = bound(start), bound(end)
	kwargs := []ir.Arg{Dt("dtype", dtype), layoutStrided(), deviceCPU(), pinMemoryFalse()}
	switch {
	case steps == 0:
		return b.Call("aten.full.default", append([]ir.Arg{Is("size", 0), I("fill_value", 0)}, kwargs...)...), nil
	case steps == 1 && start.Kind == ir.ArgTensor:
		empty := b.Call("aten.empty.memory_format", append([]ir.Arg{Is("size", 1)}, kwargs...)...)
		return b.Call("aten.copy.default", T("self", empty), Renamed(start, "src")), nil
	case steps == 1:
		return b.Call("aten.full.default", append([]ir.Arg{Is("size", 1), Renamed(start, "fill_value")}, kwargs...)...), nil
	case start.Kind != ir.ArgTensor && end.Kind != ir.ArgTensor:
		return linspaceNumbers(b, start, end, steps, dtype)
	}
	return nil, fmt.Errorf("linspace of %d steps between tensor bounds is not decomposed yet", steps)
}

func linspaceArgs(n *ir.Node) (start, end ir.Arg, steps int64, dtype ir.DType, err error) {
	s, e := n.Arg("start"), n.Arg("end")
	if s == nil || e == nil {
		return ir.Arg{}, ir.Arg{}, 0, 0, fmt.Errorf("%s without start or end", n.Target)
	}
	st := n.Arg("steps")
	if st == nil || st.Kind != ir.ArgInt || st.Int < 0 {
		return ir.Arg{}, ir.Arg{}, 0, 0, fmt.Errorf("%s with symbolic or negative steps", n.Target)
	}
	if d := n.Arg("device"); d != nil && d.Kind == ir.ArgDevice && d.Str != "cpu" && d.Str != "" {
		return ir.Arg{}, ir.Arg{}, 0, 0, fmt.Errorf("%s on %s: etgo lowers CPU programs", n.Target, d.Str)
	}
	dtype = ir.Float32
	if d, ok := scalarTypeArg(n, "dtype"); ok {
		dtype = d
	}
	return *s, *e, st.Int, dtype, nil
}

// linspace with a tensor bound (torch._refs.linspace).
func linspaceRule(b *Builder, n *ir.Node) error {
	start, end, steps, dtype, err := linspaceArgs(n)
	if err != nil {
		return err
	}
	out, err := linspaceOf(b, start, end, steps, dtype)
	if err != nil {
		return err
	}
	return b.Replace(out)
}

// logspace(start, end, steps, base) = pow(base, linspace(start, end, steps) in float64),
// converted to the dtype (torch._refs.logspace).
func logspaceRule(b *Builder, n *ir.Node) error {
	start, end, steps, dtype, err := linspaceArgs(n)
	if err != nil {
		return err
	}
	if !dtype.IsFloat() {
		return fmt.Errorf("logspace to an integer dtype is not decomposed yet")
	}
	ret, err := linspaceOf(b, start, end, steps, ir.Float64)
	if err != nil {
		return err
	}
	base := ArgOr(n, "base", I("self", 10))
	base.Name = "self"
	p := b.Call("aten.pow.Scalar", base, T("exponent", ret))
	return b.Replace(convertTo(b, p, dtype))
}
