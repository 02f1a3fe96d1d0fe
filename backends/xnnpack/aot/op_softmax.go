package aot

import (
	"fmt"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// The softmax family (op_softmax.py): XNNPACK's softmax is over the last dim only.
func init() {
	register(family{
		name: "softmax",
		configs: func(*Partitioner) []*configs.Config {
			return []*configs.Config{generic("SoftmaxConfig", "_softmax.default", fOnly, checkSoftmax)}
		},
		ops: []op{{target: "aten._softmax.default", visit: visitSoftmax}},
	})
}

func visitSoftmax(p *preprocessor, n *ir.Node) error {
	in, out := n.FirstTensorArg(), n.FirstOutput()
	if d := n.IntArg("dim", -1); d != -1 && d != int64(in.Rank()-1) {
		return fmt.Errorf("softmax over dim %d; XNNPACK only takes the last", d)
	}
	if err := p.defineIO(n, false); err != nil {
		return err
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNSoftmax, Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}})
	return nil
}

func checkSoftmax(_ *configs.Query, n *ir.Node) *partition.Decline {
	r := int64(n.FirstTensorArg().Rank())
	if d := n.IntArg("dim", -1); d != -1 && d != r-1 {
		return partition.Declinef(partition.Geometry, "softmax over dim %d of a rank-%d tensor; XNNPACK takes the last dim", d, r)
	}
	return nil
}
