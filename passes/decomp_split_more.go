package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Splitting composites export cannot keep whole (unpreservableCIA), written as ATen writes
// them: vsplit/hsplit/dsplit are tensor_split along dim 0, 1 (0 for a vector) or 2,
// unsafe_chunk is unsafe_split by the rounded-up chunk size, cartesian_prod is a meshgrid
// flattened and stacked.

func init() {
	registerRule(numpySplit("vsplit", 2, 0), "aten.vsplit.int", "aten.vsplit.array")
	registerRule(numpySplit("hsplit", 1, 1), "aten.hsplit.int", "aten.hsplit.array")
	registerRule(numpySplit("dsplit", 3, 2), "aten.dsplit.int", "aten.dsplit.array")
	registerRule(unsafeChunk, "aten.unsafe_chunk.default")
	registerRule(cartesianProd, "aten.cartesian_prod.default")
}

// numpySplit is torch.vsplit/hsplit/dsplit: x must have at least minRank dims; the split
// dim is dim (hsplit of a vector splits dim 0); an int is a number of sections that
// must divide the dim, a list the indices, both handed to tensor_split.
func numpySplit(name string, minRank, dim int) rule {
	return func(b *Builder, n *ir.Node) error {
		x, err := staticSelf(b, n)
		if err != nil {
			return err
		}
		r := len(x.Meta.Sizes)
		if r < minRank {
			return fmt.Errorf("torch.%s requires a tensor with at least %d dimension(s), but got a tensor with %d dimensions", name, minRank, r)
		}
		d := dim
		if name == "hsplit" && r == 1 {
			d = 0
		}
		if a := n.Arg("indices"); a != nil {
			if a.Kind != ir.ArgInts {
				return fmt.Errorf("%s: indices is not a list of ints", n.Target)
			}
			return b.Replace(splitPieces(b, x, d, 0, a.Ints)...)
		}
		a := n.Arg("sections")
		if a == nil || a.Kind != ir.ArgInt {
			return fmt.Errorf("%s: sections is not an int", n.Target)
		}
		if size := x.Meta.Sizes[d].Size; a.Int <= 0 || size%a.Int != 0 {
			return fmt.Errorf("torch.%s attempted to split along dimension %d, but the size of the dimension %d is not divisible by the split_size %d", name, d, size, a.Int)
		}
		return b.Replace(splitPieces(b, x, d, a.Int, nil)...)
	}
}

// unsafe_chunk(x, chunks, dim) = unsafe_split(x, ceil(size/chunks), dim); an empty dim (split
// into zero-size pieces with unsafe_split_with_sizes) is not decomposed.
func unsafeChunk(b *Builder, n *ir.Node) error {
	x, err := staticSelf(b, n)
	if err != nil {
		return err
	}
	if len(x.Meta.Sizes) == 0 {
		return fmt.Errorf("%s expects at least a 1-dimensional tensor", n.Target)
	}
	chunks, dim := n.IntArg("chunks", 0), n.IntArg("dim", 0)
	if chunks <= 0 {
		return fmt.Errorf("%s: chunks must be greater than 0, got %d", n.Target, chunks)
	}
	d, err := normDim(dim, len(x.Meta.Sizes))
	if err != nil {
		return fmt.Errorf("%s: %w", n.Target, err)
	}
	size := x.Meta.Sizes[d].Size
	if size == 0 {
		return fmt.Errorf("%s of an empty dim is not decomposed yet", n.Target)
	}
	outs, err := unsafeSplitBy(b, x, (size+chunks-1)/chunks, dim)
	if err != nil {
		return err
	}
	return b.Replace(outs...)
}

// cartesian_prod(ts) of vectors: one vector is returned itself; more are meshgridded ("ij"),
// each grid flattened, and the grids stacked along dim 1.
func cartesianProd(b *Builder, n *ir.Node) error {
	ts, err := tensorList(n, "tensors")
	if err != nil {
		return err
	}
	for _, t := range ts {
		if len(t.Meta.Sizes) != 1 {
			return fmt.Errorf("%s expects 1-D vectors, got a tensor of %s", n.Target, t.Meta)
		}
	}
	if len(ts) == 1 {
		return b.Replace(ts[0])
	}
	grids, err := meshgrid(b, ts, "ij")
	if err != nil {
		return err
	}
	for i, g := range grids {
		grids[i] = flattenAll(b, g)
	}
	return b.Replace(b.Call("aten.stack.default", Ts("tensors", grids...), I("dim", 1)))
}
