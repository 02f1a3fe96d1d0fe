package aot

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
)

// What the visitors share. The visitors themselves are in their families' files (op_*.go), as
// ExecuTorch's backends/xnnpack/operators has one per operator: which values are defined, in
// which layout, and the node's parameters.

// permNCHWToNHWC and permNHWCToNCHW are the transposes between the layouts; permNHWCToNCHW[d]
// is also where NCHW axis d sits in an NHWC tensor.
var (
	permNCHWToNHWC = [4]uint32{0, 2, 3, 1}
	permNHWCToNCHW = [4]uint32{0, 3, 1, 2}
)

// node appends an XNNPACK node, with the output clamp fused into n if any.
func (p *preprocessor) node(n *ir.Node, x xnngraph.Node) {
	x.DebugHandle = n.DebugHandle
	x.OutputMin, x.OutputMax = float32(math.Inf(-1)), float32(math.Inf(1))
	if f, ok := p.fused[n]; ok {
		x.OutputMin, x.OutputMax = f[0], f[1]
	}
	p.out.Nodes = append(p.out.Nodes, x)
}

// defineIO defines the output, then every input (define_nodes_tensor_inputs_outputs).
func (p *preprocessor) defineIO(n *ir.Node, nhwc bool) error {
	if err := p.define(n.FirstOutput(), tensorOpts{nhwc: nhwc}); err != nil {
		return err
	}
	for _, v := range n.TensorInputs() {
		if err := p.define(v, tensorOpts{nhwc: nhwc}); err != nil {
			return err
		}
	}
	return nil
}

// visit writes n with its operator's registered visitor.
func (p *preprocessor) visit(n *ir.Node) error {
	if n.FirstOutput() == nil {
		return fmt.Errorf("no output")
	}
	o := lookupOp(n.Target)
	if o == nil {
		return fmt.Errorf("%s is not supported in XNNPACK delegate (etgo has no visitor for it)", n.Target)
	}
	return o.visit(p, n)
}
