package aot

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// The copy family: clones (op_clone.py) and the layout conversions (op_to_copy.py), which
// ChannelsLastTaggedReshapePass inserts where a value is needed in the other layout and
// RemoveRedundantCopyPass removes where they cancel; the visitor writes a conversion as a
// transpose between NCHW and NHWC.
func init() {
	register(family{
		name: "copy",
		configs: func(*Partitioner) []*configs.Config {
			return []*configs.Config{
				generic("CloneConfig", "clone.default", fOnly, checkClone),
				generic("CloneDimOrderConfig", "_clone_dim_order.default", fOnly, checkCloneDimOrder),
				generic("ToDimOrderCopyConfig", "_to_dim_order_copy.default", fs, checkToDimOrderCopy),
			}
		},
		ops: []op{
			{target: targetToCopy, visit: visitLayoutConversion, layout: layoutConversion},
			{target: targetToDimOrder, visit: visitLayoutConversion, layout: layoutConversion},
			{target: "aten.clone.default", visit: visitClone},
			{target: "dim_order_ops._clone_dim_order.default", visit: visitClone},
		},
	})
}

const (
	targetToCopy     = "aten._to_copy.default"
	targetToDimOrder = "dim_order_ops._to_dim_order_copy.default"
)

// Memory formats as torch serialises them.
const (
	memoryContiguous   = 1
	memoryChannelsLast = 2
	memoryPreserve     = 4
)

func visitLayoutConversion(p *preprocessor, n *ir.Node) error {
	in, out := n.FirstTensorArg(), n.FirstOutput()
	toCL := toChannelsLast(n)
	if err := p.define(in, tensorOpts{nhwc: !toCL && in.Rank() == 4}); err != nil {
		return err
	}
	if err := p.define(out, tensorOpts{nhwc: toCL}); err != nil {
		return err
	}
	if in.Rank() != 4 {
		return fmt.Errorf("a layout conversion needs a 4-d tensor, not %s", in.Meta)
	}
	perm := permNHWCToNCHW
	if toCL {
		perm = permNCHWToNHWC
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNStaticTranspose, Perm: perm[:], Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}})
	return nil
}

// visitClone writes a clone the rewrites kept (one from an input straight to an output, which
// XNNPACK cannot pass through) as a copy.
func visitClone(p *preprocessor, n *ir.Node) error {
	in, out := n.FirstTensorArg(), n.FirstOutput()
	if err := p.define(out, tensorOpts{}); err != nil {
		return err
	}
	if err := p.define(in, tensorOpts{}); err != nil {
		return err
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNCopy, Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}})
	return nil
}

// toChannelsLast reports whether a _to_copy or _to_dim_order_copy asks for channels-last.
func toChannelsLast(n *ir.Node) bool {
	if n.Target == targetToDimOrder {
		return slices.Equal(n.IntsArg("dim_order", nil), []int64{0, 2, 3, 1})
	}
	a := n.Arg("memory_format")
	return a != nil && a.Kind == ir.ArgMemoryFormat && a.Int == memoryChannelsLast
}

// checkClone admits clones that keep the dim order. etgo's IR carries tensors in the default
// dim order, so a clone changes it exactly when it asks for another memory format.
func checkClone(_ *configs.Query, n *ir.Node) *partition.Decline {
	if a := n.Arg("memory_format"); a != nil && a.Kind == ir.ArgMemoryFormat && a.Int != memoryContiguous && a.Int != memoryPreserve {
		return partition.Declinef(partition.Geometry, "clone changes the dim order (memory format %d)", a.Int)
	}
	return nil
}

func checkCloneDimOrder(_ *configs.Query, n *ir.Node) *partition.Decline {
	order := n.IntsArg("dim_order", nil)
	if order == nil {
		return nil
	}
	for i, d := range order {
		if d != int64(i) {
			return partition.Declinef(partition.Geometry, "_clone_dim_order to dim order %v changes the dim order", order)
		}
	}
	return nil
}

func checkToDimOrderCopy(_ *configs.Query, n *ir.Node) *partition.Decline {
	in := n.FirstTensorArg()
	if in != nil && len(n.Outputs) > 0 && n.Outputs[0] != nil && in.Meta.DType != n.Outputs[0].Meta.DType {
		return partition.Declinef(partition.UnsupportedDType, "conversion from %s to %s", in.Meta.DType, n.Outputs[0].Meta.DType)
	}
	return nil
}
