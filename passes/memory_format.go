package passes

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// MemoryFormatOps replaces the operators that take a torch.memory_format by ExecuTorch's
// dim-order forms, as to_edge's MemoryFormatOpsPass does: _to_copy → _to_dim_order_copy,
// clone → _clone_dim_order, empty.memory_format → _empty_dim_order. The memory format becomes a
// dim order: contiguous_format is 0…rank-1, channels_last 0,2,3,1 (0,2,3,4,1 in 3-D), and
// preserve_format (or none) the input's own order.
type MemoryFormatOps struct{}

func (MemoryFormatOps) Name() string { return "MemoryFormatOps" }

// torch.memory_format as torch.export serialises it.
const (
	memoryFormatContiguous     = 1
	memoryFormatChannelsLast   = 2
	memoryFormatChannelsLast3d = 3
	memoryFormatPreserve       = 4
)

var dimOrderForms = map[string]string{
	"aten._to_copy.default":    "dim_order_ops._to_dim_order_copy.default",
	"aten.clone.default":       "dim_order_ops._clone_dim_order.default",
	"aten.empty.memory_format": "dim_order_ops._empty_dim_order.default",
}

func (MemoryFormatOps) Run(g *ir.Graph) (string, error) {
	count := 0
	for _, n := range g.Nodes {
		to, ok := dimOrderForms[n.Target]
		if !ok {
			continue
		}
		var rank int
		var input *ir.TensorMeta
		if v := n.TensorArg("self"); v != nil && v.Meta != nil {
			input, rank = v.Meta, len(v.Meta.Sizes)
		} else if a := n.Arg("size"); a != nil {
			rank = len(a.Ints)
		}
		format := int64(memoryFormatPreserve)
		var args []ir.Arg
		for _, a := range n.Args {
			if a.Name == "memory_format" {
				if a.Kind == ir.ArgMemoryFormat {
					format = a.Int
				}
				continue
			}
			args = append(args, a)
		}
		order, err := dimOrderOf(format, rank, input)
		if err != nil {
			return "", fmt.Errorf("node %s (%s): %w", n.Name, n.Target, err)
		}
		n.Target = to
		n.Args = append(args, ir.Arg{Name: "dim_order", Kind: ir.ArgInts, Ints: order, KwargOnly: true})
		if len(n.Outputs) == 1 && n.Outputs[0] != nil && n.Outputs[0].Meta != nil {
			if isIdentity(order) {
				n.Outputs[0].Meta.DimOrder = nil
			} else {
				n.Outputs[0].Meta.DimOrder = slices.Clone(order)
			}
		}
		count++
	}
	if count == 0 {
		return "", nil
	}
	return fmt.Sprintf("%d memory-format operator(s) to dim-order form", count), nil
}

// dimOrderOf is exir's get_dim_order for a memory format, or the input's order for
// preserve_format.
func dimOrderOf(format int64, rank int, input *ir.TensorMeta) ([]int64, error) {
	switch format {
	case memoryFormatPreserve:
		if input != nil {
			return slices.Clone(input.Order()), nil
		}
		return identity(rank), nil
	case memoryFormatContiguous:
		return identity(rank), nil
	case memoryFormatChannelsLast:
		if rank != 4 {
			return nil, fmt.Errorf("channels_last needs a 4-d tensor, not %d-d", rank)
		}
		return []int64{0, 2, 3, 1}, nil
	case memoryFormatChannelsLast3d:
		if rank != 5 {
			return nil, fmt.Errorf("channels_last_3d needs a 5-d tensor, not %d-d", rank)
		}
		return []int64{0, 2, 3, 4, 1}, nil
	}
	return nil, fmt.Errorf("memory format %d has no dim order", format)
}

func isIdentity(order []int64) bool {
	for i, d := range order {
		if d != int64(i) {
			return false
		}
	}
	return true
}
