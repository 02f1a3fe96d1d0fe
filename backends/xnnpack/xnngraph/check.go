package xnngraph

import (
	"fmt"
	"math"
	"slices"

	"github.com/etgo/etgo/backends/xnnpack/schema"
)

// This file holds the checks that make a graph runnable, beyond the cross-references validate
// verifies: that every node reads values that exist when it runs (a graph input, a constant, or
// the output of an earlier node) and writes values nothing else writes, that every graph output
// is computed, and that every node's operands have the ranks and sizes its operation needs.
//
// The official runtime checks part of this when it defines the graph (operand ids, static
// filters, parameters such as non-zero kernels and strides) and the rest when it propagates the
// input shapes through it (xnn_reshape_runtime, on every execute); what it does not check at all
// (a node reading a value nothing computed, an output no node writes) it runs anyway, on
// whatever memory holds. etgo refuses all of it when the delegate is initialised, with the node,
// its operation and what is inconsistent.

// operandRoles names a node's inputs, for error messages.
func operandRoles(n *Node) []string {
	switch tableOf(n.Op) {
	case specNode2x1:
		if n.Op == schema.XNodeUnionXNNPReLU {
			return []string{"input", "slope"}
		}
		return []string{"input1", "input2"}
	case specFC, specConv:
		return []string{"input", "filter", "bias"}
	case specCat:
		return []string{"input1", "input2", "input3", "input4", "input5"}
	case specSDPA:
		return []string{"query", "key", "value", "scale", "mask"}
	}
	return []string{"input"}
}

// optionalOperand reports whether input i of n may be absent (the invalid id).
func optionalOperand(n *Node, i int) bool {
	switch tableOf(n.Op) {
	case specFC, specConv:
		return i == 2 // the bias
	case specSDPA:
		return i == 4 // the mask
	}
	return false
}

func nodeErr(k int, n *Node, format string, args ...any) error {
	return blobErr("node %d (%s): %s", k, n.OpName(), fmt.Sprintf(format, args...))
}

// Schedule checks the dataflow and returns the order to run the nodes in (indices into
// g.Nodes), as the official runtime orders them: it drops the nodes whose results nothing
// uses (no graph output depends on them) and runs every other one after the nodes computing its
// inputs, whatever their order in the file. It refuses:
//   - a required operand missing (the invalid id), in any node;
//   - two values with the same external id;
//   - among the nodes that run: an input that is not a graph input, a constant or the output
//     of a node; a value written twice, or a constant or graph input written; a cycle;
//   - a graph output nothing computes (unless it is also a graph input, passed through).
func (g *Graph) Schedule() ([]int, error) {
	index := make(map[uint32]int, len(g.Values))
	for i := range g.Values {
		index[g.Values[i].ID] = i
	}
	byExternal := map[uint32]int{}
	for i := range g.Values {
		v := &g.Values[i]
		if v.ExternalID == InvalidID {
			continue
		}
		if j, dup := byExternal[v.ExternalID]; dup {
			return nil, blobErr("values %d and %d both have external id %d", g.Values[j].ID, v.ID, v.ExternalID)
		}
		byExternal[v.ExternalID] = i
	}
	writers := make([][]int, len(g.Values))
	for k := range g.Nodes {
		n := &g.Nodes[k]
		roles := operandRoles(n)
		for j, id := range n.Inputs {
			if id == InvalidID && !optionalOperand(n, j) {
				role := fmt.Sprintf("operand %d", j)
				if j < len(roles) {
					role = roles[j]
				}
				return nil, nodeErr(k, n, "its %s is missing (the invalid value id)", role)
			}
		}
		for j, id := range n.Outputs {
			if id == InvalidID {
				return nil, nodeErr(k, n, "output %d is missing (the invalid value id)", j)
			}
			i := index[id] // validate checked that it exists
			if len(writers[i]) == 0 || writers[i][len(writers[i])-1] != k {
				writers[i] = append(writers[i], k)
			}
		}
	}
	// The nodes that run: those a graph output depends on (and, as in XNNPACK, which keeps them
	// to be refused below, those writing a graph input).
	live := make([]bool, len(g.Nodes))
	var work []int
	outputs := 0
	for i := range g.Values {
		if g.Values[i].IsOutput() {
			outputs++
		}
		if g.Values[i].Flags != 0 {
			work = append(work, i)
		}
	}
	if outputs == 0 {
		return nil, blobErr("the graph has no outputs (no value is flagged a graph output)")
	}
	seen := make([]bool, len(g.Values))
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[i] {
			continue
		}
		seen[i] = true
		for _, k := range writers[i] {
			if live[k] {
				continue
			}
			live[k] = true
			for _, id := range g.Nodes[k].Inputs {
				if id != InvalidID {
					work = append(work, index[id])
				}
			}
		}
	}
	ready := make([]bool, len(g.Values))
	for i := range g.Values {
		v := &g.Values[i]
		ready[i] = v.ConstantIdx != 0 || v.IsInput()
		var w []int
		for _, k := range writers[i] {
			if live[k] {
				w = append(w, k)
			}
		}
		switch {
		case len(w) == 0:
			if v.IsOutput() && !v.IsInput() {
				return nil, blobErr("graph output value %d (external id %d) is not computed by any node", v.ID, v.ExternalID)
			}
		case len(w) > 1:
			return nil, nodeErr(w[1], &g.Nodes[w[1]], "writes value %d, which node %d (%s) computes already", v.ID, w[0], g.Nodes[w[0]].OpName())
		case v.ConstantIdx != 0:
			return nil, nodeErr(w[0], &g.Nodes[w[0]], "writes value %d, a constant", v.ID)
		case v.IsInput():
			return nil, nodeErr(w[0], &g.Nodes[w[0]], "writes value %d, a graph input", v.ID)
		}
		writers[i] = w
	}
	// Each pass runs, in file order, every waiting node whose inputs are ready.
	var order, waiting []int
	for k := range g.Nodes {
		if live[k] {
			waiting = append(waiting, k)
		}
	}
	for len(waiting) > 0 {
		var still []int
		for _, k := range waiting {
			n := &g.Nodes[k]
			ok := true
			for _, id := range n.Inputs {
				ok = ok && (id == InvalidID || ready[index[id]])
			}
			if !ok {
				still = append(still, k)
				continue
			}
			order = append(order, k)
			for _, id := range n.Outputs {
				ready[index[id]] = true
			}
		}
		if len(still) == len(waiting) {
			return nil, g.unschedulable(still, index, writers, ready)
		}
		waiting = still
	}
	return order, nil
}

// unschedulable explains why none of the waiting nodes can run: the first reads a value that
// nothing computes, or they wait on each other.
func (g *Graph) unschedulable(waiting []int, index map[uint32]int, writers [][]int, ready []bool) error {
	for _, k := range waiting {
		n := &g.Nodes[k]
		roles := operandRoles(n)
		for j, id := range n.Inputs {
			if id == InvalidID || ready[index[id]] || len(writers[index[id]]) > 0 {
				continue
			}
			role := fmt.Sprintf("operand %d", j)
			if j < len(roles) {
				role = roles[j]
			}
			return nodeErr(k, n, "its %s, value %d, is not a graph input, a constant or the output of any node", role, id)
		}
	}
	k := waiting[0]
	n := &g.Nodes[k]
	for _, id := range n.Inputs {
		if id != InvalidID && !ready[index[id]] {
			w := writers[index[id]][0]
			if w == k {
				return nodeErr(k, n, "reads value %d, which it computes itself", id)
			}
			return nodeErr(k, n, "reads value %d, computed by node %d (%s), which depends on this node's result: the graph has a cycle", id, w, g.Nodes[w].OpName())
		}
	}
	return nodeErr(k, n, "cannot be scheduled")
}

// MaxValueElements bounds the elements of a value whose shape the graph implies (2^28: a GiB
// of fp32): larger ones are a corrupt size, not a model, and would be allocated at execute.
var MaxValueElements = 1 << 28

func Numel(d []int) int {
	n := 1
	for _, x := range d {
		n *= x
	}
	return n
}

// InferShapes propagates shapes through the nodes in order (a schedule) as execution will: the graph inputs have the
// shapes inputDims gives (the delegate call's tensors, or the blob's declared dims), constants
// their declared dims, and every node's outputs the shape its operation computes from its
// inputs; each node's operands are checked on the way. It returns the shape of every value
// (nil for values no node or input defines).
func (g *Graph) InferShapes(order []int, inputDims func(i int) []int) ([][]int, error) {
	index := make(map[uint32]int, len(g.Values))
	shapes := make([][]int, len(g.Values))
	for i := range g.Values {
		v := &g.Values[i]
		index[v.ID] = i
		switch {
		case v.ConstantIdx != 0:
			shapes[i] = DimsOf(v.Dims)
		case v.IsInput():
			shapes[i] = inputDims(i)
		}
	}
	for _, k := range order {
		n := &g.Nodes[k]
		in := make([][]int, len(n.Inputs))
		for j, id := range n.Inputs {
			if id != InvalidID {
				in[j] = shapes[index[id]]
			}
		}
		if n.Op == schema.XNodeUnionXNNGlobalAvgPooling2d {
			// XNNPACK picks the axes it averages (the two before the last) from the rank its
			// input is declared with, not the rank it gets.
			if d := g.Values[index[n.Inputs[0]]].Dims; len(d) != 4 {
				return nil, nodeErr(k, n, "input value %d is declared %d-d %v; global pooling averages H and W of a 4-d NHWC value", n.Inputs[0], len(d), d)
			}
		}
		outs, err := inferNode(n, in)
		if err != nil {
			return nil, nodeErr(k, n, "%v", err)
		}
		for j, id := range n.Outputs {
			if j < len(outs) {
				if e := Numel(outs[j]); e > MaxValueElements {
					return nil, nodeErr(k, n, "output value %d would have shape %v (%d elements, more than %d)", id, outs[j], e, MaxValueElements)
				}
				shapes[index[id]] = outs[j]
			}
		}
	}
	return shapes, nil
}

// IntermediateBudget is how far the intermediate values a graph computes may exceed the sizes
// it declares for them, in bytes (issue 13's memory budget: 64 MB beyond what a file declares).
const IntermediateBudget = 64 << 20

// WithinDeclared refuses a graph whose nodes compute intermediate values larger in total than
// the values' declared dims by more than IntermediateBudget. Valid blobs declare every value
// at its size (or its upper bound, for dynamic shapes); a corrupt parameter (a padding of
// 52,993 on a 3x3 convolution) would make a 1 MB file allocate hundreds of MB. XNNPACK itself
// resizes and runs such a graph; etgo refuses it, on purpose, naming the largest value. Small
// disagreements (a declared dim off by one, which XNNPACK ignores) stay accepted.
func (g *Graph) WithinDeclared(shapes [][]int) error {
	var computed, declared int64
	worst, worstExcess := -1, int64(0)
	for i, s := range shapes {
		v := &g.Values[i]
		if s == nil || v.ConstantIdx != 0 || v.IsInput() {
			continue
		}
		c, d := int64(Numel(s))*4, int64(Numel(DimsOf(v.Dims)))*4
		computed += c
		declared += d
		if c-d > worstExcess {
			worst, worstExcess = i, c-d
		}
	}
	if computed > declared+IntermediateBudget && worst >= 0 {
		v := &g.Values[worst]
		return blobErr("the graph computes %d MB of intermediate values where its values declare %d MB (value %d: shape %v, declared %v)",
			computed>>20, declared>>20, v.ID, shapes[worst], v.Dims)
	}
	return nil
}

func DimsOf(d []uint32) []int {
	out := make([]int, len(d))
	for i, x := range d {
		out[i] = int(x)
	}
	return out
}

// inferNode is a node's output shapes from its input shapes (in[j] nil for an absent optional
// operand), or what is inconsistent about them.
func inferNode(n *Node, in [][]int) ([][]int, error) {
	one := func(d []int, err error) ([][]int, error) {
		if err != nil {
			return nil, err
		}
		return [][]int{d}, nil
	}
	x := in[0]
	switch n.Op {
	case schema.XNodeUnionXNNAdd, schema.XNodeUnionXNNSubtract, schema.XNodeUnionXNNMultiply, schema.XNodeUnionXNNDiv,
		schema.XNodeUnionXNNMinimum, schema.XNodeUnionXNNMaximum:
		d, err := BroadcastDims(x, in[1])
		if err != nil {
			return nil, fmt.Errorf("inputs of shapes %v and %v do not broadcast", x, in[1])
		}
		return [][]int{d}, nil
	case schema.XNodeUnionXNNPReLU:
		// The slope broadcasts as a block of the input's trailing dims (one value, one per
		// channel, or one per element), which is how the kernel indexes it.
		s := in[1]
		if inner := TrailingBroadcast(s, x); Numel(s) != 1 && (inner == 0 || inner != Numel(s)) {
			return nil, fmt.Errorf("slope of shape %v does not broadcast over the input's %v as its trailing dims", s, x)
		}
		return [][]int{x}, nil
	case schema.XNodeUnionXNNSoftmax:
		if len(x) == 0 {
			return nil, fmt.Errorf("softmax of a rank-0 input")
		}
		return [][]int{x}, nil
	case schema.XNodeUnionXNNFullyConnected:
		return one(inferFC(n, x, in[1], in[2]))
	case schema.XNodeUnionXNNBatchMatrixMultiply:
		return one(inferBMM(n, x, in[1]))
	case schema.XNodeUnionXNNConv2d, schema.XNodeUnionXNNDepthwiseConv2d, schema.XNodeUnionXNNConvTranspose2d:
		return one(inferConv(n, x, in[1], in[2]))
	case schema.XNodeUnionXNNMaxPooling2d, schema.XNodeUnionXNNAvgPooling2d:
		return one(inferPool(n, x))
	case schema.XNodeUnionXNNArgMaxPooling2d:
		d, err := inferPool(n, x)
		if err != nil {
			return nil, err
		}
		return [][]int{d, d}, nil
	case schema.XNodeUnionXNNGlobalAvgPooling2d:
		if len(x) != 4 {
			return nil, fmt.Errorf("input of shape %v is not 4-d NHWC", x)
		}
		if n.Flags&FlagKeepDims != 0 {
			return [][]int{{x[0], 1, 1, x[3]}}, nil
		}
		return [][]int{{x[0], x[3]}}, nil
	case schema.XNodeUnionXNNStaticTranspose:
		return one(inferTranspose(n, x))
	case schema.XNodeUnionXNNStaticReshape:
		return one(inferReshape(n, x))
	case schema.XNodeUnionXNNStaticSlice:
		return one(inferSlice(n, x))
	case schema.XNodeUnionXNNStaticConstantPad:
		return one(inferPad(n, x))
	case schema.XNodeUnionXNNConcatenate2, schema.XNodeUnionXNNConcatenate3, schema.XNodeUnionXNNConcatenate4,
		schema.XNodeUnionXNNConcatenate5:
		return one(inferConcat(n, in))
	case schema.XNodeUnionXNNStaticResizeBilinear2D:
		if len(x) != 4 {
			return nil, fmt.Errorf("input of shape %v is not 4-d NHWC", x)
		}
		if n.NewHeight == 0 || n.NewWidth == 0 || n.NewHeight >= 1<<24 || n.NewWidth >= 1<<24 {
			return nil, fmt.Errorf("output size %dx%d: each must be in [1, 2^24)", n.NewHeight, n.NewWidth)
		}
		return [][]int{{x[0], int(n.NewHeight), int(n.NewWidth), x[3]}}, nil
	case schema.XNodeUnionXNNScaledDotProductAttention:
		return nil, nil // refused by the plan as unsupported
	}
	// The elementwise unary operations: the output has the input's shape.
	return [][]int{x}, nil
}

func inferFC(n *Node, x, w, b []int) ([]int, error) {
	if len(w) != 2 {
		return nil, fmt.Errorf("filter of shape %v is not 2-d", w)
	}
	if len(x) == 0 {
		return nil, fmt.Errorf("rank-0 input")
	}
	oc, ic := w[0], w[1]
	if n.Flags&FlagTransposeWeights != 0 {
		oc, ic = ic, oc
	}
	if x[len(x)-1] != ic {
		return nil, fmt.Errorf("input of shape %v does not end in the filter's %d input channels (filter %v)", x, ic, w)
	}
	if b != nil && Numel(b) != oc {
		return nil, fmt.Errorf("bias of shape %v for %d output channels", b, oc)
	}
	return append(slices.Clone(x[:len(x)-1]), oc), nil
}

func inferBMM(n *Node, a, b []int) ([]int, error) {
	if len(a) < 2 || len(b) < 2 {
		return nil, fmt.Errorf("inputs of shapes %v and %v: both need at least 2 dims", a, b)
	}
	m, k := a[len(a)-2], a[len(a)-1]
	kb, nn := b[len(b)-2], b[len(b)-1]
	if n.Flags&FlagTransposeWeights != 0 {
		kb, nn = nn, kb
	}
	if k != kb {
		return nil, fmt.Errorf("inner dimensions of %v and %v differ (%d, %d)", a, b, k, kb)
	}
	batch, err := BroadcastDims(a[:len(a)-2], b[:len(b)-2])
	if err != nil {
		return nil, fmt.Errorf("batch dimensions of %v and %v do not broadcast", a, b)
	}
	return append(slices.Clone(batch), m, nn), nil
}

// convExtent is a convolution or pooling's output extent, or an error when the (padded) input
// is smaller than the (dilated) window. Sizes come from an untrusted blob: the arithmetic is in
// int64, on operands below 2^32 (kernel sizes below 2^28, matched against a bounded filter).
func convExtent(what string, in int, padA, padB, kernel, stride, dilation uint32) (int, error) {
	eff := int64(dilation)*(int64(kernel)-1) + 1
	padded := int64(in) + int64(padA) + int64(padB)
	if padded < eff {
		return 0, fmt.Errorf("%s window of %d (size %d, dilation %d) exceeds the padded input's %d", what, eff, kernel, dilation, padded)
	}
	return int((padded-eff)/int64(stride) + 1), nil
}

// mul is a·b, saturated at 2^62 (so that comparing it with a real size stays meaningful).
func mul(a, b uint32) int64 {
	if p := uint64(a) * uint64(b); p < 1<<62 {
		return int64(p)
	}
	return 1 << 62
}

func inferConv(n *Node, x, w, b []int) ([]int, error) {
	cp := n.Conv
	if cp.KernelH == 0 || cp.KernelW == 0 || cp.StrideH == 0 || cp.StrideW == 0 || cp.DilationH == 0 || cp.DilationW == 0 {
		return nil, fmt.Errorf("kernel %dx%d, stride %dx%d, dilation %dx%d: each must be non-zero", cp.KernelH, cp.KernelW, cp.StrideH, cp.StrideW, cp.DilationH, cp.DilationW)
	}
	if cp.Groups == 0 || cp.GroupInputChannels == 0 || cp.GroupOutputChannels == 0 {
		return nil, fmt.Errorf("%d groups of %d input and %d output channels: each must be non-zero", cp.Groups, cp.GroupInputChannels, cp.GroupOutputChannels)
	}
	if len(x) != 4 {
		return nil, fmt.Errorf("input of shape %v is not 4-d NHWC", x)
	}
	if len(w) != 4 {
		return nil, fmt.Errorf("filter of shape %v is not 4-d", w)
	}
	N, H, W, C := x[0], x[1], x[2], x[3]
	OC := mul(cp.Groups, cp.GroupOutputChannels)
	kh, kw := int64(cp.KernelH), int64(cp.KernelW)
	if n.Op == schema.XNodeUnionXNNDepthwiseConv2d {
		// groups is the input channels, group_output_channels the channels each makes (the
		// multiplier); the official preprocess writes group_input_channels 1.
		if cp.GroupInputChannels != 1 || int64(C) != int64(cp.Groups) {
			return nil, fmt.Errorf("input of shape %v for a depthwise convolution of %d channels (%d input channels per group, want 1)", x, cp.Groups, cp.GroupInputChannels)
		}
		if int64(w[0]) != 1 || int64(w[1]) != kh || int64(w[2]) != kw || int64(w[3]) != OC {
			return nil, fmt.Errorf("filter of shape %v, the geometry needs [1 %d %d %d]", w, kh, kw, OC)
		}
	} else {
		if int64(C) != mul(cp.Groups, cp.GroupInputChannels) {
			return nil, fmt.Errorf("input of shape %v has %d channels, the geometry needs %d groups x %d", x, C, cp.Groups, cp.GroupInputChannels)
		}
		if int64(w[0]) != OC || int64(w[1]) != kh || int64(w[2]) != kw || int64(w[3]) != int64(cp.GroupInputChannels) {
			return nil, fmt.Errorf("filter of shape %v, the geometry needs [%d %d %d %d]", w, OC, kh, kw, cp.GroupInputChannels)
		}
	}
	if b != nil && int64(Numel(b)) != OC {
		return nil, fmt.Errorf("bias of shape %v for %d output channels", b, OC)
	}
	if n.Op == schema.XNodeUnionXNNConvTranspose2d {
		if cp.AdjustmentH >= cp.StrideH || cp.AdjustmentW >= cp.StrideW {
			return nil, fmt.Errorf("adjustment %dx%d must be below the stride %dx%d", cp.AdjustmentH, cp.AdjustmentW, cp.StrideH, cp.StrideW)
		}
		OH := int64(cp.StrideH)*int64(H-1) + int64(cp.AdjustmentH) + int64(cp.DilationH)*(kh-1) + 1 - int64(cp.PadTop) - int64(cp.PadBottom)
		OW := int64(cp.StrideW)*int64(W-1) + int64(cp.AdjustmentW) + int64(cp.DilationW)*(kw-1) + 1 - int64(cp.PadLeft) - int64(cp.PadRight)
		if H < 1 || W < 1 || OH < 1 || OW < 1 {
			return nil, fmt.Errorf("input of shape %v gives an empty %dx%d output (the padding exceeds the upsampled input)", x, OH, OW)
		}
		if OH*OW > int64(MaxValueElements) {
			return nil, fmt.Errorf("input of shape %v gives a %dx%d output", x, OH, OW)
		}
		return []int{N, int(OH), int(OW), int(OC)}, nil
	}
	OH, err := convExtent("kernel", H, cp.PadTop, cp.PadBottom, cp.KernelH, cp.StrideH, cp.DilationH)
	if err != nil {
		return nil, err
	}
	OW, err := convExtent("kernel", W, cp.PadLeft, cp.PadRight, cp.KernelW, cp.StrideW, cp.DilationW)
	if err != nil {
		return nil, err
	}
	return []int{N, OH, OW, int(OC)}, nil
}

func inferPool(n *Node, x []int) ([]int, error) {
	pp := n.Pool
	if pp.PoolH == 0 || pp.PoolW == 0 || pp.StrideH == 0 || pp.StrideW == 0 || pp.DilationH == 0 || pp.DilationW == 0 {
		return nil, fmt.Errorf("pool %dx%d, stride %dx%d, dilation %dx%d: each must be non-zero", pp.PoolH, pp.PoolW, pp.StrideH, pp.StrideW, pp.DilationH, pp.DilationW)
	}
	if len(x) != 4 {
		return nil, fmt.Errorf("input of shape %v is not 4-d NHWC", x)
	}
	if pp.PadTop >= pp.PoolH || pp.PadBottom >= pp.PoolH || pp.PadLeft >= pp.PoolW || pp.PadRight >= pp.PoolW {
		// A window entirely in the padding has no input to take the maximum or mean of.
		return nil, fmt.Errorf("padding %d,%d,%d,%d (top, right, bottom, left) reaches a whole %dx%d window", pp.PadTop, pp.PadRight, pp.PadBottom, pp.PadLeft, pp.PoolH, pp.PoolW)
	}
	if pp.PoolH > 1<<20 || pp.PoolW > 1<<20 {
		return nil, fmt.Errorf("pool %dx%d is out of range", pp.PoolH, pp.PoolW)
	}
	OH, err := convExtent("pooling", x[1], pp.PadTop, pp.PadBottom, pp.PoolH, pp.StrideH, pp.DilationH)
	if err != nil {
		return nil, err
	}
	OW, err := convExtent("pooling", x[2], pp.PadLeft, pp.PadRight, pp.PoolW, pp.StrideW, pp.DilationW)
	if err != nil {
		return nil, err
	}
	return []int{x[0], OH, OW, x[3]}, nil
}

func inferTranspose(n *Node, x []int) ([]int, error) {
	r := len(x)
	if len(n.Perm) != r || r == 0 {
		return nil, fmt.Errorf("perm %v for an input of shape %v", n.Perm, x)
	}
	seen := make([]bool, r)
	out := make([]int, r)
	for i, d := range n.Perm {
		if int(d) >= r || seen[d] {
			return nil, fmt.Errorf("perm %v is not a permutation of 0..%d", n.Perm, r-1)
		}
		seen[d] = true
		out[i] = x[d]
	}
	return out, nil
}

func inferReshape(n *Node, x []int) ([]int, error) {
	if len(n.NewShape) > MaxDims {
		return nil, fmt.Errorf("new shape %v has more than %d dims", n.NewShape, MaxDims)
	}
	out := make([]int, len(n.NewShape))
	known, infer := 1, -1
	for i, d := range n.NewShape {
		if d > math.MaxInt32 {
			return nil, fmt.Errorf("new shape %v is out of range", n.NewShape)
		}
		out[i] = int(d)
		if d == 0 {
			if infer >= 0 {
				return nil, fmt.Errorf("new shape %v has more than one dimension to infer", n.NewShape)
			}
			infer = i
			continue
		}
		known *= int(d)
		if known > MaxValueElements {
			return nil, fmt.Errorf("new shape %v is too large", n.NewShape)
		}
	}
	if infer >= 0 {
		if known == 0 || Numel(x)%known != 0 {
			return nil, fmt.Errorf("cannot infer a dimension of %v from an input of shape %v", n.NewShape, x)
		}
		out[infer] = Numel(x) / known
	}
	if Numel(out) != Numel(x) {
		return nil, fmt.Errorf("cannot reshape an input of shape %v (%d elements) to %v (%d)", x, Numel(x), n.NewShape, Numel(out))
	}
	return out, nil
}

func inferSlice(n *Node, x []int) ([]int, error) {
	r := len(x)
	if len(n.Offsets) != r || len(n.Sizes) != r {
		return nil, fmt.Errorf("%d offsets and %d sizes for an input of shape %v", len(n.Offsets), len(n.Sizes), x)
	}
	out := make([]int, r)
	for i := range out {
		o, s := int(n.Offsets[i]), int(n.Sizes[i])
		if s == 0 {
			s = x[i] - o
		}
		if o < 0 || s <= 0 || o > x[i] || s > x[i]-o {
			return nil, fmt.Errorf("offset %d size %d is outside dimension %d of the input's %v", n.Offsets[i], n.Sizes[i], i, x)
		}
		out[i] = s
	}
	return out, nil
}

func inferPad(n *Node, x []int) ([]int, error) {
	r := len(x)
	if len(n.PrePadding) != r || len(n.PostPadding) != r {
		return nil, fmt.Errorf("%d pre- and %d post-paddings for an input of shape %v", len(n.PrePadding), len(n.PostPadding), x)
	}
	out := make([]int, r)
	for i := range out {
		if n.PrePadding[i] > 1<<20 || n.PostPadding[i] > 1<<20 {
			return nil, fmt.Errorf("padding %d+%d of dimension %d is out of range", n.PrePadding[i], n.PostPadding[i], i)
		}
		out[i] = x[i] + int(n.PrePadding[i]) + int(n.PostPadding[i])
	}
	return out, nil
}

func inferConcat(n *Node, in [][]int) ([]int, error) {
	first := in[0]
	ax := int(n.Axis)
	if n.Axis >= uint32(len(first)) {
		return nil, fmt.Errorf("axis %d for inputs of rank %d", n.Axis, len(first))
	}
	out := slices.Clone(first)
	out[ax] = 0
	for j, d := range in {
		if len(d) != len(first) {
			return nil, fmt.Errorf("input %d has shape %v, input 1 %v: ranks differ", j+1, d, first)
		}
		for i := range d {
			if i != ax && d[i] != first[i] {
				return nil, fmt.Errorf("input %d has shape %v, input 1 %v: they differ outside axis %d", j+1, d, first, ax)
			}
		}
		out[ax] += d[ax]
	}
	return out, nil
}
