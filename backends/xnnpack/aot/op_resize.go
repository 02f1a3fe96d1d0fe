package aot

import (
	"fmt"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// The resize family (op_static_resize_bilinear_2d.py): bilinear upsampling to a static size,
// channels-last as XNNPACK resizes, kept whole through the Edge conversion.
func init() {
	register(family{
		name: "resize",
		configs: func(*Partitioner) []*configs.Config {
			return []*configs.Config{
				keep(generic("UpsampleBilinear2dConfig", "upsample_bilinear2d.vec", fOnly, checkUpsample), "aten.upsample_bilinear2d.vec"),
			}
		},
		ops: []op{{target: "aten.upsample_bilinear2d.vec", visit: visitResizeBilinear, layout: layoutNHWC}},
	})
}

func visitResizeBilinear(p *preprocessor, n *ir.Node) error {
	in, out := n.FirstTensorArg(), n.FirstOutput()
	if err := p.define(out, tensorOpts{nhwc: true}); err != nil {
		return err
	}
	if err := p.define(in, tensorOpts{nhwc: true}); err != nil {
		return err
	}
	sz := out.Meta.Sizes
	if len(sz) != 4 || !sz[2].IsStatic() || !sz[3].IsStatic() {
		return fmt.Errorf("bilinear resize needs a static 4-d output, not %s", out.Meta)
	}
	var flags uint32
	if n.BoolArg("align_corners", false) {
		flags = xnngraph.FlagAlignCorners
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNStaticResizeBilinear2D, NewHeight: uint32(sz[2].Size), NewWidth: uint32(sz[3].Size),
		Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}, Flags: flags})
	return nil
}

func checkUpsample(_ *configs.Query, n *ir.Node) *partition.Decline {
	if len(n.Outputs) > 0 && n.Outputs[0] != nil && n.Outputs[0].Meta != nil && !n.Outputs[0].Meta.IsStatic() {
		return partition.Declinef(partition.DynamicShape, "bilinear upsampling to the dynamic size %s", n.Outputs[0].Meta)
	}
	return nil
}
