package xnnpack

import (
	"math"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// SiLU, x·sigmoid(x), reaches XNNPACK as two nodes: a Sigmoid of x and a Multiply of x by the
// sigmoid's output (the official partitioner decomposes aten.silu so; XNNPACK's runtime fuses
// neither). Run as written, the sigmoid writes a whole tensor and the multiply reads two, each
// on data long out of cache: EfficientNet-B0 ends nearly every convolution so. The plan runs
// the pair as one pass (gemm.SiLUAt), folded into the convolution or fully connected layer that
// produces x when nothing else reads x, else in the sigmoid's step. The numerics are the two
// nodes' bit for bit: the same sigmoid element by element, the same product in the same operand
// order, the multiply's output range after it.

// fuseSiLUs can be turned off by tests, to compare with the two-node form.
var fuseSiLUs = true

// siluPair is a Sigmoid step and the Multiply step that is its output's only reader and
// multiplies the sigmoid's input by it.
type siluPair struct {
	sig, mul int
	x, z     uint32 // the sigmoid's input; the product
	sigFirst bool   // the multiply's first operand is the sigmoid
}

// siluAt recognises the pair whose sigmoid is step k, with readers the steps reading each value.
func (p *plan) siluAt(k int, readers map[uint32][]int) (siluPair, bool) {
	s := p.steps[k].node
	if !fuseSiLUs || s.Op != schema.XNodeUnionXNNSigmoid || len(s.Inputs) != 1 || len(s.Outputs) != 1 || !p.plainFP32(s) || !unbounded(s) {
		return siluPair{}, false
	}
	x, sv := s.Inputs[0], s.Outputs[0]
	rs := readers[sv]
	if len(rs) != 1 || rs[0] <= k || x == sv {
		return siluPair{}, false
	}
	m := p.steps[rs[0]].node
	if m.Op != schema.XNodeUnionXNNMultiply || len(m.Inputs) != 2 || len(m.Outputs) != 1 || !p.plainFP32(m) {
		return siluPair{}, false
	}
	sigFirst := m.Inputs[0] == sv
	if (m.Inputs[0] != x || m.Inputs[1] != sv) && (m.Inputs[0] != sv || m.Inputs[1] != x) {
		return siluPair{}, false
	}
	return siluPair{sig: k, mul: rs[0], x: x, z: m.Outputs[0], sigFirst: sigFirst}, true
}

// plainFP32 says node n's operands are all present fp32 values: neither quantized codes nor
// fp16 (whose rounding after each node the fused pass would skip).
func (p *plan) plainFP32(n *xnngraph.Node) bool {
	if p.touchesQuant(n) {
		return false
	}
	for _, id := range append(n.Inputs[:len(n.Inputs):len(n.Inputs)], n.Outputs...) {
		if id == xnngraph.InvalidID || p.f16[p.index[id]] {
			return false
		}
	}
	return true
}

func unbounded(n *xnngraph.Node) bool {
	return math.IsInf(float64(n.OutputMin), -1) && math.IsInf(float64(n.OutputMax), 1)
}

// fuseSiLUInto folds a SiLU into producer step k (one that takesActivation, checked by the
// caller) when the pair's sigmoid and multiply are the only readers of its output rs: the
// producer then writes the product, the pair's steps do nothing.
func (p *plan) fuseSiLUInto(k int, rs []int, readers map[uint32][]int) bool {
	if len(rs) != 2 {
		return false
	}
	n := p.steps[k].node
	y := n.Outputs[0]
	for i, r := range rs {
		sp, ok := p.siluAt(r, readers)
		if !ok || sp.x != y || sp.mul != rs[1-i] || r <= k {
			continue
		}
		if p.g.Values[p.index[p.steps[r].node.Outputs[0]]].IsOutput() {
			return false
		}
		p.fuseInto(n, sp.z, p.siluAct(sp, p.steps[sp.mul].node), sp.sig, sp.mul)
		return true
	}
	return false
}

// siluAct is the pair's in-place form for a producer: the product of each chunk, then the
// multiply's output range.
func (p *plan) siluAct(sp siluPair, m *xnngraph.Node) actFunc {
	z := &p.vals[p.index[sp.z]] // (sized by the producer before it computes a chunk)
	lo, hi, clamp := m.OutputMin, m.OutputMax, !unbounded(m)
	sigFirst := sp.sigFirst
	return func(d []float32, off int) {
		gemm.SiLUAt(d, d, off, z.numel(), sigFirst)
		if clamp {
			gemm.Clamp(d, lo, hi)
		}
	}
}

// fuseSiLU runs each remaining pair in its sigmoid's step: x read once, the product written
// once, the multiply's step a no-op (its range moves to the sigmoid, clamped after it as
// before).
func (p *plan) fuseSiLU(readers map[uint32][]int) {
	for k := range p.steps {
		sp, ok := p.siluAt(k, readers)
		if !ok || p.g.Values[p.index[p.steps[k].node.Outputs[0]]].IsOutput() {
			continue
		}
		s, m := p.steps[k].node, p.steps[sp.mul].node
		s.Outputs = []uint32{sp.z}
		s.OutputMin, s.OutputMax = m.OutputMin, m.OutputMax
		m.Inputs, m.Outputs = nil, nil
		p.steps[sp.mul].run = func(*plan, *xnngraph.Node) error { return nil }
		p.steps[k].run = siluStep(sp.sigFirst)
	}
}

// siluStep computes a pair's product from the sigmoid's input in one pass.
func siluStep(sigFirst bool) runFunc {
	return func(p *plan, n *xnngraph.Node) error {
		x, err := p.in(n.Inputs[0])
		if err != nil {
			return err
		}
		y := p.out(n.Outputs[0], x.dims)
		total := len(y.data)
		p.elementwise(total, func(lo, hi int) { gemm.SiLUAt(y.data[lo:hi], x.data[lo:hi], lo, total, sigFirst) })
		return nil
	}
}
