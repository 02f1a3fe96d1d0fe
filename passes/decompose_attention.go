package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Decompositions of the operators a transformer layer exports with.

// decomposeLayerNorm: layer_norm is native_layer_norm, whose first result is the output (the
// mean and rstd results are unused).
func decomposeLayerNorm(_ *ir.Graph, n *ir.Node, _ *strides) error {
	in, err := tensorIn(n, "input")
	if err != nil {
		return err
	}
	if _, err := result(n); err != nil {
		return err
	}
	shape := n.Arg("normalized_shape")
	if shape == nil || shape.Kind != ir.ArgInts {
		return fmt.Errorf("normalized_shape is not a list of ints")
	}
	opt := func(name string) ir.Arg {
		if a := n.Arg(name); a != nil {
			return *a
		}
		return ir.Arg{Name: name, Kind: ir.ArgNone}
	}
	eps := ir.Arg{Name: "eps", Kind: ir.ArgFloat, Float: 1e-5}
	if a := n.Arg("eps"); a != nil {
		eps = *a
	}
	n.Target = "aten.native_layer_norm.default"
	n.Args = []ir.Arg{tensorArgOf("input", in), *shape, opt("weight"), opt("bias"), eps}
	n.Outputs = append(n.Outputs, nil, nil)
	return nil
}

// decomposeChunk: chunk(self, chunks, dim) is split_with_sizes with ceil(size/chunks) per
// piece, the last one shorter.
func decomposeChunk(_ *ir.Graph, n *ir.Node, _ *strides) error {
	in, err := tensorIn(n, "self")
	if err != nil {
		return err
	}
	chunks := n.IntArg("chunks", 0)
	d, ok := norm(n.IntArg("dim", 0), len(in.Meta.Sizes))
	if chunks < 1 || !ok || !in.Meta.Sizes[d].IsStatic() {
		return fmt.Errorf("chunk of a symbolic or invalid dim, or %d chunks", chunks)
	}
	size := in.Meta.Sizes[d].Size
	piece := (size + chunks - 1) / chunks
	var sizes []int64
	for left := size; left > 0; left -= piece {
		sizes = append(sizes, min(piece, left))
	}
	if len(sizes) != len(n.Outputs) {
		return fmt.Errorf("chunk into %d pieces but %d results", len(sizes), len(n.Outputs))
	}
	n.Target = "aten.split_with_sizes.default"
	n.Args = []ir.Arg{tensorArgOf("self", in), {Name: "split_sizes", Kind: ir.ArgInts, Ints: sizes}, {Name: "dim", Kind: ir.ArgInt, Int: n.IntArg("dim", 0)}}
	return nil
}

// decomposeTranspose: transpose(dim0, dim1) is the permute swapping them.
func decomposeTranspose(_ *ir.Graph, n *ir.Node, _ *strides) error {
	in, err := tensorIn(n, "self")
	if err != nil {
		return err
	}
	r := len(in.Meta.Sizes)
	i, ok1 := norm(n.IntArg("dim0", 0), r)
	j, ok2 := norm(n.IntArg("dim1", 0), r)
	if !ok1 || !ok2 {
		return fmt.Errorf("dims out of range for rank %d", r)
	}
	dims := identity(r)
	dims[i], dims[j] = dims[j], dims[i]
	n.Target = "aten.permute.default"
	n.Args = []ir.Arg{tensorArgOf("self", in), {Name: "dims", Kind: ir.ArgInts, Ints: dims}}
	return nil
}
