package xnnpack

import (
	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// Elementwise fp32 chains between two quantized values, run as a table. A quantized program
// keeps the operators that have no quantized form in fp32 between a dequantizing Convert and a
// quantizing one: EfficientNet's SiLU is Convert(qint8 -> fp32), Sigmoid, Multiply(x, sigmoid(x)),
// Convert(fp32 -> qint8). When every node between the two Converts is elementwise and reads
// only values computed from the first Convert's output, each output code is a function of the
// input code at the same position, so the chain is computed once, at init, for the 256 codes
// by the very kernels that would run it, and applied as a 256-entry table (gemm.LUT8): the
// same codes, bit for bit, without the fp32 tensors.

// lutOps are the elementwise fp32 node types a chain may hold (unary, or binary on two values
// of the chain; none broadcasts, since every chain value has the first Convert's shape).
var lutOps = map[schema.XNodeUnion]bool{
	schema.XNodeUnionXNNAbs: true, schema.XNodeUnionXNNCeiling: true, schema.XNodeUnionXNNClamp: true,
	schema.XNodeUnionXNNELU: true, schema.XNodeUnionXNNExp: true, schema.XNodeUnionXNNFloor: true,
	schema.XNodeUnionXNNGelu: true, schema.XNodeUnionXNNHardswish: true, schema.XNodeUnionXNNLeakyReLU: true,
	schema.XNodeUnionXNNNegate: true, schema.XNodeUnionXNNSigmoid: true, schema.XNodeUnionXNNSquare: true,
	schema.XNodeUnionXNNTanh: true, schema.XNodeUnionXNNAdd: true, schema.XNodeUnionXNNSubtract: true,
	schema.XNodeUnionXNNMultiply: true, schema.XNodeUnionXNNMaximum: true, schema.XNodeUnionXNNMinimum: true,
}

// fuseQuantLUTs finds such chains and replaces each by its table, applied by the last Convert
// to the first Convert's input codes; the chain's other steps then run nothing.
func (p *plan) fuseQuantLUTs() {
	readers := map[uint32][]int{}
	for k, s := range p.steps {
		for _, id := range s.node.Inputs {
			if id != xnngraph.InvalidID {
				readers[id] = append(readers[id], k)
			}
		}
	}
	for k0 := range p.steps {
		n0 := p.steps[k0].node
		if n0.Op != schema.XNodeUnionXNNConvert || len(n0.Inputs) != 1 || len(n0.Outputs) != 1 ||
			!isQint8(p.qof(n0.Inputs[0])) || p.qof(n0.Outputs[0]) != nil {
			continue
		}
		chain, last, ok := p.lutChain(k0, readers)
		if !ok {
			continue
		}
		lut, ok := p.lutOf(k0, chain, last)
		if !ok {
			continue
		}
		src := n0.Inputs[0]
		tail := p.steps[last].node
		for _, k := range append([]int{k0}, chain...) {
			p.steps[k].run, p.steps[k].ownRange = func(*plan, *xnngraph.Node) error { return nil }, true
		}
		tail.Inputs = []uint32{src}
		p.steps[last].run = func(p *plan, n *xnngraph.Node) error {
			x, xq, err := inOf[int8](p, n.Inputs[0])
			if err != nil {
				return err
			}
			_, y := outOf[int8](p, n.Outputs[0], x.dims)
			xq = xq[:len(y)]
			p.elementwise(len(y), func(lo, hi int) { lut.Run(y[lo:hi], xq[lo:hi]) })
			return nil
		}
	}
}

// lutChain collects the steps after Convert k0 that form a chain (in plan order) and the final
// Convert to qint8: every value the chain computes is read only inside it and is no graph
// output, every chain node is one of lutOps with all its inputs chain values.
func (p *plan) lutChain(k0 int, readers map[uint32][]int) (chain []int, last int, ok bool) {
	in := map[uint32]bool{p.steps[k0].node.Outputs[0]: true}
	last = -1
	for k := k0 + 1; k < len(p.steps); k++ {
		n := p.steps[k].node
		reads := false
		for _, id := range n.Inputs {
			reads = reads || in[id]
		}
		if !reads {
			continue
		}
		for _, id := range n.Inputs {
			if !in[id] {
				return nil, 0, false // it mixes a chain value with another
			}
		}
		if len(n.Outputs) != 1 || n.Outputs[0] == xnngraph.InvalidID {
			return nil, 0, false
		}
		if n.Op == schema.XNodeUnionXNNConvert && isQint8(p.qof(n.Outputs[0])) {
			if last >= 0 {
				return nil, 0, false
			}
			last = k
			continue
		}
		if !lutOps[n.Op] || p.touchesQuant(n) || (len(n.Inputs) != 1 && len(n.Inputs) != 2) {
			return nil, 0, false
		}
		if last >= 0 {
			return nil, 0, false // a chain node after the final Convert
		}
		chain = append(chain, k)
		in[n.Outputs[0]] = true
	}
	if last < 0 || len(chain) == 0 {
		return nil, 0, false
	}
	// Every chain value is read only by chain steps (or the final Convert) and leaves nowhere.
	steps := map[int]bool{last: true}
	for _, k := range chain {
		steps[k] = true
	}
	for id := range in {
		if p.g.Values[p.index[id]].IsOutput() || p.g.Values[p.index[id]].IsInput() {
			return nil, 0, false
		}
		for _, r := range readers[id] {
			if !steps[r] {
				return nil, 0, false
			}
		}
	}
	return chain, last, true
}

// lutOf runs Convert k0, the chain and the final Convert on the 256 codes (as a [256] tensor)
// and returns the table, leaving the plan's values as they were.
func (p *plan) lutOf(k0 int, chain []int, last int) (*gemm.LUT8, bool) {
	ks := append(append([]int{k0}, chain...), last)
	ids := []uint32{p.steps[k0].node.Inputs[0]}
	for _, k := range ks {
		ids = append(ids, p.steps[k].node.Outputs[0])
	}
	saved := make([]tensor, len(ids))
	for i, id := range ids {
		saved[i] = *p.val(id)
	}
	defer func() {
		for i, id := range ids {
			*p.val(id) = saved[i]
		}
	}()
	codes := make([]int8, 256)
	for i := range codes {
		codes[i] = int8(i) // index i: the code whose byte is i
	}
	*p.val(ids[0]) = tensor{dims: []int{256}, q: codes}
	for _, k := range ks {
		s := &p.steps[k]
		if err := s.run(p, s.node); err != nil {
			return nil, false
		}
		if !s.ownRange {
			clampOutput(p, s.node)
		}
	}
	out := p.val(ids[len(ids)-1]).q
	if len(out) != 256 {
		return nil, false
	}
	var t [256]int8
	copy(t[:], out)
	return gemm.NewLUT8(t), true
}
