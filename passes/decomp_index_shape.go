package passes

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// Shape operators outside core ATen — stacking, flipping, rolling, tiling, splitting,
// broadcasting — as torch's references (torch/_refs), its decomposition table
// (torch/_decomp) or, for CompositeImplicitAutograd operators, ATen's C++ write them: the same
// core operators in the same order, with the arguments torch passes.

func init() {
	registerRule(flipSide(1), "aten.fliplr.default")
	registerRule(flipSide(0), "aten.flipud.default")
	registerRule(rot90Rule, "aten.rot90.default")
	registerRule(rollRule, "aten.roll.default")
	registerRule(tileRule, "aten.tile.default")
	registerRule(fftshift(false), "aten.fft_fftshift.default")
	registerRule(fftshift(true), "aten.fft_ifftshift.default")
	registerRule(repeatInterleave, "aten.repeat_interleave.self_int")
	registerRule(hstackRule, "aten.hstack.default")
	registerRule(vstackRule, "aten.vstack.default")
	registerRule(dstackRule, "aten.dstack.default")
	registerRule(columnStack, "aten.column_stack.default")
	registerRule(broadcastTensors, "aten.broadcast_tensors.default")
	registerRule(meshgridRule, "aten.meshgrid.indexing", "aten.meshgrid.default")
	registerRule(unsafeSplit, "aten.unsafe_split.Tensor")
	registerRule(chunkCat, "aten._chunk_cat.default")
	registerRule(blockDiag, "aten.block_diag.default")
	registerRule(sumToSize, "aten.sum_to_size.default")
	registerRule(argsortRule, "aten.argsort.default", "aten.argsort.stable")
	registerRule(msortRule, "aten.msort.default")
	registerRule(broadcastTo, "aten.broadcast_to.default")
	registerRule(narrowRule, "aten.narrow.default")
	registerRule(liftFreshCopy, "aten.lift_fresh_copy.default")
	registerRule(nopAlias, "aten.detach.default", "aten.lift.default", "aten.lift_fresh.default")
}

// detach, lift and lift_fresh are aliases of their input (torch._decomp's nop_decomposition).
func nopAlias(b *Builder, n *ir.Node) error {
	return b.Replace(b.Call("aten.alias.default", T("self", self(b, n))))
}

// narrow(x, dim, start, length) = slice(x, dim, start, start + length) (ATen): a negative
// start counts from the end; dim is passed on as given (a negative dim stays negative).
func narrowRule(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	dim := n.IntArg("dim", 0)
	d, err := normDim(dim, len(x.Meta.Sizes))
	if err != nil || len(x.Meta.Sizes) == 0 {
		return fmt.Errorf("narrow of a 0-d tensor or over dim %d", dim)
	}
	start, length := n.Arg("start"), n.Arg("length")
	if start == nil || length == nil || start.Kind != ir.ArgInt || length.Kind != ir.ArgInt {
		return fmt.Errorf("narrow with a symbolic or tensor start or length")
	}
	s := start.Int
	if s < 0 {
		if !x.Meta.Sizes[d].IsStatic() {
			return fmt.Errorf("narrow from the end of a symbolic dim")
		}
		s += x.Meta.Sizes[d].Size
	}
	return b.Replace(b.Call("aten.slice.Tensor", T("self", x), I("dim", dim), I("start", s), I("end", s+length.Int)))
}

// broadcast_to(x, size) = x.expand(size) (ATen), a node even when nothing changes.
func broadcastTo(b *Builder, n *ir.Node) error {
	size := n.Arg("size")
	if size == nil {
		return fmt.Errorf("broadcast_to without a size")
	}
	return b.Replace(b.Call("aten.expand.default", T("self", self(b, n)), Renamed(*size, "size")))
}

// lift_fresh_copy(x) = x.clone(): a lifted constant's fresh copy.
func liftFreshCopy(b *Builder, n *ir.Node) error {
	return b.Replace(b.Call("aten.clone.default", T("self", self(b, n))))
}

// pinMemoryFalse is the pin_memory=False torch's factory references pass.
func pinMemoryFalse() ir.Arg {
	return ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true}
}

// arangeSpan is torch.arange(start, end) on the CPU (arange.start_step, a strided layout,
// pin_memory=False), of dtype when one is given (int64 otherwise, as the ints make it).
func arangeSpan(b *Builder, start, end int64, dtype *ir.DType) *ir.Value {
	args := []ir.Arg{I("start", start), I("end", end), I("step", 1)}
	if dtype != nil {
		args = append(args, Dt("dtype", *dtype))
	}
	args = append(args, layoutStrided(), deviceCPU(), pinMemoryFalse())
	return b.Call("aten.arange.start_step", args...)
}

// zerosOf is torch.zeros(sizes, dtype): full(sizes, 0) on the CPU.
func zerosOf(b *Builder, sizes []int64, dtype ir.DType) *ir.Value {
	return b.Call("aten.full.default", Is("size", sizes...), I("fill_value", 0), Dt("dtype", dtype),
		layoutStrided(), deviceCPU(), pinMemoryFalse())
}

// tensorList is the node's list-of-tensors argument name, every item with its metadata and
// static sizes (the shape rules compute sizes; symbolic ones would need sym_size nodes).
func tensorList(n *ir.Node, name string) ([]*ir.Value, error) {
	a := n.Arg(name)
	if a == nil || a.Kind != ir.ArgTensors || len(a.Values) == 0 {
		return nil, fmt.Errorf("%s: %s is not a list of tensors", n.Target, name)
	}
	if err := staticSizes(a.Values...); err != nil {
		return nil, fmt.Errorf("%s: %w", n.Target, err)
	}
	return a.Values, nil
}

// staticSelf is the node's self with static sizes.
func staticSelf(b *Builder, n *ir.Node) (*ir.Value, error) {
	x := self(b, n)
	if b.Err() != nil {
		return nil, b.Err()
	}
	if err := staticSizes(x); err != nil {
		return nil, fmt.Errorf("%s: %w", n.Target, err)
	}
	return x, nil
}

func numelOf(sizes []int64) int64 {
	k := int64(1)
	for _, s := range sizes {
		k *= s
	}
	return k
}

// swapPerm is the permutation transpose(d0, d1) is on a rank-r tensor (transpose.int's
// decomposition, a permute of every dim).
func swapPerm(r, d0, d1 int) []int64 {
	p := identity(r)
	p[d0], p[d1] = p[d1], p[d0]
	return p
}

// flattenAll is Tensor.flatten(): a 0-d tensor becomes [1], a vector stays itself, anything else
// is reshaped to its element count.
func flattenAll(b *Builder, x *ir.Value) *ir.Value {
	switch len(x.Meta.Sizes) {
	case 0:
		return b.Call("aten.reshape.default", T("self", x), Is("shape", 1))
	case 1:
		return x
	}
	return b.Call("aten.reshape.default", T("self", x), Is("shape", numelOf(sizesOf(x.Meta))))
}

// fliplr(x) = flip(x, [1]); flipud(x) = flip(x, [0]).
func flipSide(dim int64) rule {
	return func(b *Builder, n *ir.Node) error {
		return b.Replace(b.Call("aten.flip.default", T("self", self(b, n)), Is("dims", dim)))
	}
}

// rot90(x, k, dims): by k mod 4 quarter turns, flip one of the two dims and swap them, or
// flip both, or copy (torch._refs.rot90).
func rot90Rule(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	r := len(x.Meta.Sizes)
	dims := n.IntsArg("dims", []int64{0, 1})
	if len(dims) != 2 || r < 2 {
		return fmt.Errorf("rot90 of a %d-d tensor over dims %v", r, dims)
	}
	d0, err := normDim(dims[0], r)
	if err != nil {
		return err
	}
	d1, err := normDim(dims[1], r)
	if err != nil || d0 == d1 {
		return fmt.Errorf("rot90 over dims %v", dims)
	}
	switch k := ((n.IntArg("k", 1) % 4) + 4) % 4; k {
	case 1, 3:
		flipped := d1
		if k == 3 {
			flipped = d0
		}
		f := b.Call("aten.flip.default", T("self", x), Is("dims", int64(flipped)))
		return b.Replace(b.Call("aten.permute.default", T("self", f), Is("dims", swapPerm(r, d0, d1)...)))
	case 2:
		return b.Replace(b.Call("aten.flip.default", T("self", x), Is("dims", int64(d0), int64(d1))))
	}
	return b.Replace(cloneContiguous(b, x))
}

// cloneContiguous is x.clone(memory_format=torch.contiguous_format).
func cloneContiguous(b *Builder, x *ir.Value) *ir.Value {
	return b.Call("aten.clone.default", T("self", x),
		ir.Arg{Name: "memory_format", Kind: ir.ArgMemoryFormat, Int: memoryFormatContiguous, KwargOnly: true})
}

// roll(x, shifts, dims) (torch._refs.roll): an empty tensor is cloned; without dims the
// flattened tensor is rolled and viewed back; several dims roll one after the other; one dim
// is index_select with (arange + start) mod size, start = (size - shift) mod size.
func rollRule(b *Builder, n *ir.Node) error {
	x, err := staticSelf(b, n)
	if err != nil {
		return err
	}
	shifts, dims := n.IntsArg("shifts", nil), n.IntsArg("dims", nil)
	out, err := rollDims(b, x, shifts, dims)
	if err != nil {
		return err
	}
	return b.Replace(out)
}

func rollDims(b *Builder, x *ir.Value, shifts, dims []int64) (*ir.Value, error) {
	sizes := sizesOf(x.Meta)
	r := len(sizes)
	if numelOf(sizes) == 0 {
		return b.Call("aten.clone.default", T("self", x)), nil
	}
	if len(shifts) != 1 || len(dims) != 1 {
		switch {
		case len(shifts) == 0:
			return nil, fmt.Errorf("roll without shifts")
		case len(dims) == 0 && len(shifts) == 1:
			f := flattenAll(b, x)
			rolled, err := rollDims(b, f, shifts, []int64{0})
			if err != nil {
				return nil, err
			}
			return b.Call("aten.view.default", T("self", rolled), Is("size", sizes...)), nil
		case len(shifts) != len(dims):
			return nil, fmt.Errorf("roll: %d shifts for %d dims", len(shifts), len(dims))
		}
		first, err := rollDims(b, x, shifts[:1], dims[:1])
		if err != nil {
			return nil, err
		}
		return rollDims(b, first, shifts[1:], dims[1:])
	}
	d, err := normDim(dims[0], r)
	if err != nil {
		return nil, err
	}
	size := sizes[d]
	start := ((size-shifts[0])%size + size) % size
	idx := arangeSpan(b, 0, size, nil)
	idx = b.Call("aten.add.Tensor", T("self", idx), I("other", start))
	idx = b.Call("aten.fmod.Scalar", T("self", idx), I("other", size))
	return b.Call("aten.index_select.default", T("self", x), I("dim", int64(d)), T("index", idx)), nil
}

// fftshift(x, dims) = roll(x, size/2 along each dim) over every dim by default;
// ifftshift rolls by (size+1)/2 (torch._refs.fft).
func fftshift(inverse bool) rule {
	return func(b *Builder, n *ir.Node) error {
		x, err := staticSelf(b, n)
		if err != nil {
			return err
		}
		r := len(x.Meta.Sizes)
		var dims []int64
		switch a := n.Arg("dim"); {
		case a == nil || a.Kind == ir.ArgNone:
			dims = identity(r)
		case a.Kind == ir.ArgInt:
			dims = []int64{a.Int}
		case a.Kind == ir.ArgInts:
			dims = a.Ints
		default:
			return fmt.Errorf("%s with symbolic dims", n.Target)
		}
		shifts := make([]int64, len(dims))
		for i, d := range dims {
			k, err := normDim(d, r)
			if err != nil {
				return err
			}
			size := x.Meta.Sizes[k].Size
			if inverse {
				size++
			}
			shifts[i] = size / 2
		}
		out, err := rollDims(b, x, shifts, dims)
		if err != nil {
			return err
		}
		return b.Replace(out)
	}
}

// tile(x, reps) = x.repeat(reps), reps padded with leading ones to x's rank (ATen's tile).
func tileRule(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	reps := n.IntsArg("dims", nil)
	if reps == nil {
		return fmt.Errorf("tile with symbolic repeats")
	}
	if pad := len(x.Meta.Sizes) - len(reps); pad > 0 {
		reps = append(repeat(1, pad), reps...)
	}
	return b.Replace(b.Call("aten.repeat.default", T("self", x), Is("repeats", reps...)))
}

// repeat_interleave(x, repeats: int, dim) (ATen): without a dim x is flattened and dim is 0;
// x gets a dim after dim, expanded to repeats, copied contiguous and merged into dim.
func repeatInterleave(b *Builder, n *ir.Node) error {
	x, err := staticSelf(b, n)
	if err != nil {
		return err
	}
	k := n.Arg("repeats")
	if k == nil || k.Kind != ir.ArgInt {
		return fmt.Errorf("repeat_interleave with symbolic repeats")
	}
	var d int
	if a := n.Arg("dim"); a != nil && a.Kind == ir.ArgInt {
		if d, err = normDim(a.Int, len(x.Meta.Sizes)); err != nil {
			return err
		}
	} else {
		x = flattenAll(b, x)
	}
	if b.Err() != nil {
		return b.Err()
	}
	sizes := sizesOf(x.Meta)
	u := b.Call("aten.unsqueeze.default", T("self", x), I("dim", int64(d+1)))
	expanded := slices.Insert(slices.Clone(sizes), d+1, k.Int)
	e := b.Call("aten.expand.default", T("self", u), Is("size", expanded...))
	c := cloneContiguous(b, e)
	merged := slices.Clone(sizes)
	merged[d] *= k.Int
	return b.Replace(b.Call("aten.reshape.default", T("self", c), Is("shape", merged...)))
}

// atLeastRank is ATen's atleast_1d/2d/3d on one tensor: a 0-d tensor is reshaped to ones; a
// vector is unsqueezed at 0 (and, to 3-d, at the end); a matrix at the end to reach 3-d.
func atLeastRank(b *Builder, x *ir.Value, rank int) *ir.Value {
	r := len(x.Meta.Sizes)
	switch {
	case r >= rank:
		return x
	case r == 0:
		return b.Call("aten.reshape.default", T("self", x), Is("shape", repeat(1, rank)...))
	case r == 1 && rank == 3:
		u := b.Call("aten.unsqueeze.default", T("self", x), I("dim", 0))
		return b.Call("aten.unsqueeze.default", T("self", u), I("dim", -1))
	case r == 1:
		return b.Call("aten.unsqueeze.default", T("self", x), I("dim", 0))
	}
	return b.Call("aten.unsqueeze.default", T("self", x), I("dim", -1))
}

func stackRule(rank int, dim func(first *ir.Value) int64) rule {
	return func(b *Builder, n *ir.Node) error {
		ts, err := tensorList(n, "tensors")
		if err != nil {
			return err
		}
		aligned := make([]*ir.Value, len(ts))
		for i, t := range ts {
			aligned[i] = atLeastRank(b, t, rank)
		}
		if b.Err() != nil {
			return b.Err()
		}
		return b.Replace(b.Call("aten.cat.default", Ts("tensors", aligned...), I("dim", dim(aligned[0]))))
	}
}

// hstack (ATen) concatenates at-least-1-d tensors along dim 0 for vectors, else 1.
var hstackRule = stackRule(1, func(first *ir.Value) int64 {
	if len(first.Meta.Sizes) == 1 {
		return 0
	}
	return 1
})

// vstack concatenates at-least-2-d tensors along dim 0; dstack at-least-3-d ones along dim 2.
var (
	vstackRule = stackRule(2, func(*ir.Value) int64 { return 0 })
	dstackRule = stackRule(3, func(*ir.Value) int64 { return 2 })
)

// column_stack reshapes 0-d and 1-d tensors to a column (numel, 1) and concatenates along 1.
func columnStack(b *Builder, n *ir.Node) error {
	ts, err := tensorList(n, "tensors")
	if err != nil {
		return err
	}
	aligned := make([]*ir.Value, len(ts))
	for i, t := range ts {
		aligned[i] = t
		if len(t.Meta.Sizes) <= 1 {
			aligned[i] = b.Call("aten.reshape.default", T("self", t), Is("shape", numelOf(sizesOf(t.Meta)), 1))
		}
	}
	return b.Replace(b.Call("aten.cat.default", Ts("tensors", aligned...), I("dim", 1)))
}

// broadcast_tensors expands every tensor to the common shape (torch._refs'
// _maybe_broadcast); a tensor that already has it is itself.
func broadcastTensors(b *Builder, n *ir.Node) error {
	ts, err := tensorList(n, "tensors")
	if err != nil {
		return err
	}
	shapes := make([][]ir.Dim, len(ts))
	for i, t := range ts {
		shapes[i] = t.Meta.Sizes
	}
	common, err := broadcast(shapes...)
	if err != nil {
		return err
	}
	size := sizesOf(&ir.TensorMeta{Sizes: common})
	outs := make([]*ir.Value, len(ts))
	for i, t := range ts {
		outs[i] = t
		if !slices.Equal(sizesOf(t.Meta), size) {
			outs[i] = b.Call("aten.expand.default", T("self", t), Is("size", size...))
		}
	}
	return b.Replace(outs...)
}

// meshgrid (ATen): "xy" swaps the first two tensors (and grids); tensor i, 0-d or 1-d, is
// viewed with -1 at dim i and ones elsewhere and expanded to the grid.
func meshgridRule(b *Builder, n *ir.Node) error {
	ts, err := tensorList(n, "tensors")
	if err != nil {
		return err
	}
	indexing := "ij"
	if a := n.Arg("indexing"); a != nil && a.Kind == ir.ArgString {
		indexing = a.Str
	}
	grids, err := meshgrid(b, ts, indexing)
	if err != nil {
		return err
	}
	return b.Replace(grids...)
}

// meshgrid is ATen's meshgrid of 0-d or 1-D tensors: each viewed along its own dim and
// expanded to the grid (the first two swapped around it for "xy" indexing).
func meshgrid(b *Builder, ts []*ir.Value, indexing string) ([]*ir.Value, error) {
	ts = slices.Clone(ts)
	if indexing != "xy" && indexing != "ij" {
		return nil, fmt.Errorf("meshgrid indexing %q", indexing)
	}
	swap := indexing == "xy" && len(ts) >= 2
	if swap {
		ts[0], ts[1] = ts[1], ts[0]
	}
	shape := make([]int64, len(ts))
	for i, t := range ts {
		if len(t.Meta.Sizes) > 1 {
			return nil, fmt.Errorf("meshgrid of a %d-d tensor", len(t.Meta.Sizes))
		}
		shape[i] = numelOf(sizesOf(t.Meta))
	}
	grids := make([]*ir.Value, len(ts))
	for i, t := range ts {
		view := repeat(1, len(ts))
		view[i] = -1
		v := b.Call("aten.view.default", T("self", t), Is("size", view...))
		grids[i] = b.Call("aten.expand.default", T("self", v), Is("size", shape...))
	}
	if swap {
		grids[0], grids[1] = grids[1], grids[0]
	}
	return grids, b.Err()
}

// unsafe_split(x, split_size, dim) = split(x, split_size, dim), which torch's table writes as
// split_with_sizes with the sizes spelled out (the last one the remainder).
func unsafeSplit(b *Builder, n *ir.Node) error {
	x, err := staticSelf(b, n)
	if err != nil {
		return err
	}
	outs, err := unsafeSplitBy(b, x, n.IntArg("split_size", 0), n.IntArg("dim", 0))
	if err != nil {
		return err
	}
	return b.Replace(outs...)
}

// unsafeSplitBy is unsafe_split(x, k, dim) of a static x: split_with_sizes with the sizes
// spelled out, dim as given.
func unsafeSplitBy(b *Builder, x *ir.Value, k, dim int64) ([]*ir.Value, error) {
	d, err := normDim(dim, len(x.Meta.Sizes))
	if err != nil {
		return nil, err
	}
	size := x.Meta.Sizes[d].Size
	if size == 0 || k <= 0 {
		return nil, fmt.Errorf("unsafe_split of a dim of %d by %d", size, k)
	}
	chunks := (size + k - 1) / k
	parts := repeat(k, int(chunks))
	parts[len(parts)-1] = k - (k*chunks - size)
	outs := b.CallN("aten.split_with_sizes.default", T("self", x), Is("split_sizes", parts...), I("dim", dim))
	return outs, b.Err()
}

// _chunk_cat(ts, dim, num_chunks): each tensor is padded at the end of dim to a multiple of
// num_chunks, viewed as [leading…, num_chunks, -1] and the views concatenated along dim + 1.
func chunkCat(b *Builder, n *ir.Node) error {
	ts, err := tensorList(n, "tensors")
	if err != nil {
		return err
	}
	chunks := n.IntArg("num_chunks", 0)
	dim := n.IntArg("dim", 0)
	if chunks < 1 {
		return fmt.Errorf("_chunk_cat into %d chunks", chunks)
	}
	sameRank := true
	for _, t := range ts {
		sameRank = sameRank && len(t.Meta.Sizes) == len(ts[0].Meta.Sizes)
	}
	d := int(dim)
	if sameRank {
		if d, err = normDim(dim, len(ts[0].Meta.Sizes)); err != nil {
			return err
		}
	} else if dim < 0 {
		return fmt.Errorf("_chunk_cat with a negative dim of tensors of different ranks")
	}
	padded := make([]*ir.Value, len(ts))
	for i, t := range ts {
		sizes := sizesOf(t.Meta)
		if d >= len(sizes) {
			return fmt.Errorf("_chunk_cat: dim %d of a %d-d tensor", d, len(sizes))
		}
		along := (sizes[d] + chunks - 1) / chunks * chunks
		if along != sizes[d] {
			pad := append(repeat(0, 2*(len(sizes)-d-1)), 0, along-sizes[d])
			t = b.Call("aten.constant_pad_nd.default", T("self", t), Is("pad", pad...), I("value", 0))
		}
		view := append(slices.Clone(sizes[:d]), chunks, -1)
		padded[i] = b.Call("aten.reshape.default", T("self", t), Is("shape", view...))
	}
	return b.Replace(b.Call("aten.cat.default", Ts("tensors", padded...), I("dim", int64(d+1))))
}

// block_diag (torch._refs): vectors are viewed as rows; each block is concatenated between
// zero blocks filling its rows to the total width; the rows are concatenated.
func blockDiag(b *Builder, n *ir.Node) error {
	ts, err := tensorList(n, "tensors")
	if err != nil {
		return err
	}
	rows := make([]*ir.Value, len(ts))
	for i, t := range ts {
		rows[i] = t
		if len(t.Meta.Sizes) <= 1 {
			rows[i] = b.Call("aten.view.default", T("self", t), Is("size", 1, -1))
		}
	}
	if b.Err() != nil {
		return b.Err()
	}
	cols := int64(0)
	for _, t := range rows {
		if len(t.Meta.Sizes) != 2 {
			return fmt.Errorf("block_diag of a %d-d tensor", len(t.Meta.Sizes))
		}
		cols += t.Meta.Sizes[1].Size
	}
	var parts []*ir.Value
	start := int64(0)
	for _, t := range rows {
		r, c := t.Meta.Sizes[0].Size, t.Meta.Sizes[1].Size
		left := zerosOf(b, []int64{r, start}, t.Meta.DType)
		right := zerosOf(b, []int64{r, cols - start - c}, t.Meta.DType)
		parts = append(parts, b.Call("aten.cat.default", Ts("tensors", left, t, right), I("dim", 1)))
		start += c
	}
	return b.Replace(b.Call("aten.cat.default", Ts("tensors", parts...), I("dim", 0)))
}

// sum_to_size(x, size) is ATen's sum_to: to no size, a sum of everything; otherwise a sum,
// keeping dims, over the leading dims and those size makes 1, viewed as size when there were
// leading dims (x itself when nothing is summed).
func sumToSize(b *Builder, n *ir.Node) error {
	x, err := staticSelf(b, n)
	if err != nil {
		return err
	}
	shape := n.IntsArg("size", nil)
	sizes := sizesOf(x.Meta)
	if shape == nil || len(shape) > len(sizes) {
		return fmt.Errorf("sum_to_size to %v of %v", shape, sizes)
	}
	if len(shape) == 0 {
		return b.Replace(b.Call("aten.sum.dim_IntList", T("self", x), Is("dim")))
	}
	lead := len(sizes) - len(shape)
	var dims []int64
	for i := 0; i < lead; i++ {
		dims = append(dims, int64(i))
	}
	for i := lead; i < len(sizes); i++ {
		if shape[i-lead] == 1 && sizes[i] != 1 {
			dims = append(dims, int64(i))
		}
	}
	out := x
	if len(dims) > 0 {
		out = b.Call("aten.sum.dim_IntList", T("self", x), Is("dim", dims...), Bo("keepdim", true))
	}
	if lead > 0 {
		out = b.Call("aten.view.default", T("self", out), Is("size", shape...))
	}
	return b.Replace(out)
}

// argsort(x, dim, descending) = sort(x, dim, descending)[1]; the stable overload sorts with
// sort.stable, which is not core ATen (the official conversion fails on it too).
func argsortRule(b *Builder, n *ir.Node) error {
	x := self(b, n)
	args := []ir.Arg{T("self", x)}
	target := "aten.sort.default"
	if n.Target == "aten.argsort.stable" {
		target = "aten.sort.stable"
		args = append(args, ArgOr(n, "stable", Bo("stable", false)))
	}
	args = append(args, I("dim", n.IntArg("dim", -1)), Bo("descending", n.BoolArg("descending", false)))
	outs := b.CallN(target, args...)
	if b.Err() != nil {
		return b.Err()
	}
	return b.Replace(outs[1])
}

// msort(x) = sort(x, dim=0)[0].
func msortRule(b *Builder, n *ir.Node) error {
	outs := b.CallN("aten.sort.default", T("self", self(b, n)), I("dim", 0), Bo("descending", false))
	if b.Err() != nil {
		return b.Err()
	}
	return b.Replace(outs[0])
}
