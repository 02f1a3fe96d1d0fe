package aot

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
)

// One visitor per Edge operator the partitioner claims, as the node visitors of ExecuTorch's
// backends/xnnpack/operators define them: which values are defined, in which layout, and the
// node's parameters.

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

// legacyVisit is the visitor of the families not yet in their files.
func (p *preprocessor) legacyVisit(n *ir.Node) error {
	out := n.FirstOutput()
	if out == nil {
		return fmt.Errorf("no output")
	}
	in := n.FirstTensorArg()
	id := func(v *ir.Value) uint32 { return p.ids[v] }
	switch n.Target {
	case targetToCopy, targetToDimOrder:
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
		p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNStaticTranspose, Perm: perm[:], Inputs: []uint32{id(in)}, Outputs: []uint32{id(out)}})
		return nil
	case targetClone, targetCloneDimOrder:
		if err := p.define(out, tensorOpts{}); err != nil {
			return err
		}
		if err := p.define(in, tensorOpts{}); err != nil {
			return err
		}
		p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNCopy, Inputs: []uint32{id(in)}, Outputs: []uint32{id(out)}})
		return nil
	case "aten._softmax.default":
		if d := n.IntArg("dim", -1); d != -1 && d != int64(in.Rank()-1) {
			return fmt.Errorf("softmax over dim %d; XNNPACK only takes the last", d)
		}
		if err := p.defineIO(n, false); err != nil {
			return err
		}
		p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNSoftmax, Inputs: []uint32{id(in)}, Outputs: []uint32{id(out)}})
		return nil
	case "aten.permute_copy.default":
		if err := p.defineIO(n, false); err != nil {
			return err
		}
		dims := n.IntsArg("dims", nil)
		r := in.Rank()
		perm := make([]uint32, len(dims))
		for i, d := range dims {
			if d < 0 {
				d += int64(r)
			}
			if d < 0 || int(d) >= r {
				return fmt.Errorf("permutation %v out of range for rank %d", dims, r)
			}
			perm[i] = uint32(d)
		}
		if p.nhwc[out] {
			if len(perm) != 4 {
				return fmt.Errorf("a channels-last permute must be 4-d")
			}
			var contig, cl [4]uint32
			for i, d := range perm {
				contig[i] = permNHWCToNCHW[d]
			}
			for i := range cl {
				cl[i] = contig[permNCHWToNHWC[i]]
			}
			perm = cl[:]
		}
		p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNStaticTranspose, Perm: perm, Inputs: []uint32{id(in)}, Outputs: []uint32{id(out)}})
		return nil
	case "aten.view_copy.default":
		if err := p.defineIO(n, false); err != nil {
			return err
		}
		a := n.Arg("size")
		if a == nil || a.Kind != ir.ArgInts {
			return fmt.Errorf("symbolic reshape sizes are not supported by XNNStaticReshape")
		}
		shape, dynamic := make([]uint32, len(a.Ints)), 0
		for i, d := range a.Ints {
			if d == -1 {
				d, dynamic = 0, dynamic+1
			}
			if d < 0 || d > math.MaxUint32 {
				return fmt.Errorf("reshape size %v", a.Ints)
			}
			shape[i] = uint32(d)
		}
		if dynamic > 1 {
			return fmt.Errorf("XNNPACK reshape takes at most one inferred dimension")
		}
		p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNStaticReshape, NewShape: shape, Inputs: []uint32{id(in)}, Outputs: []uint32{id(out)}})
		return nil
	case "aten.squeeze_copy.dim", "aten.unsqueeze_copy.default":
		d, r := n.IntArg("dim", 0), in.Rank()
		last := int64(r - 1)
		if n.Target == "aten.unsqueeze_copy.default" {
			last = int64(r)
		}
		if d != -1 && d != last {
			return fmt.Errorf("only the last dimension is supported (dim %d)", d)
		}
		if err := p.defineIO(n, false); err != nil {
			return err
		}
		shape, dynamic := make([]uint32, len(out.Meta.Sizes)), 0
		for i, s := range out.Meta.Sizes {
			if !s.IsStatic() {
				dynamic++
				continue
			}
			shape[i] = uint32(s.Size)
		}
		if dynamic > 1 {
			return fmt.Errorf("XNNPACK reshape takes at most one dynamic dimension")
		}
		p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNStaticReshape, NewShape: shape, Inputs: []uint32{id(in)}, Outputs: []uint32{id(out)}})
		return nil
	case "aten.slice_copy.Tensor":
		return p.visitSlice(n)
	case targetCat:
		return p.visitCat(n)
	case "aten.constant_pad_nd.default":
		return p.visitPad(n)
	case "aten.upsample_bilinear2d.vec":
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
			Inputs: []uint32{id(in)}, Outputs: []uint32{id(out)}, Flags: flags})
		return nil
	}
	return fmt.Errorf("%s is not supported in XNNPACK delegate (etgo has no visitor for it)", n.Target)
}

// nhwcAxis maps an NCHW axis to its position in an NHWC tensor.
func nhwcAxis(d int) int { return int(permNHWCToNCHW[d]) }

func (p *preprocessor) visitSlice(n *ir.Node) error {
	in, out := n.FirstTensorArg(), n.FirstOutput()
	if err := p.defineIO(n, false); err != nil {
		return err
	}
	if n.IntArg("step", 1) != 1 {
		return fmt.Errorf("XNNPACK slices with stride 1 only")
	}
	inShape, err := p.dimsOf(in)
	if err != nil {
		return err
	}
	outShape, err := p.dimsOf(out)
	if err != nil {
		return err
	}
	dim := int(n.IntArg("dim", 0))
	if dim < 0 {
		dim += len(inShape)
	}
	if dim < 0 || dim >= len(inShape) {
		return fmt.Errorf("slice dim %d out of range", n.IntArg("dim", 0))
	}
	if p.nhwc[out] {
		if len(inShape) != 4 {
			return fmt.Errorf("a channels-last slice must be 4-d")
		}
		inShape = []uint32{inShape[0], inShape[2], inShape[3], inShape[1]}
		outShape = []uint32{outShape[0], outShape[2], outShape[3], outShape[1]}
		dim = nhwcAxis(dim)
	}
	start := n.IntArg("start", 0)
	if start < 0 {
		start += int64(inShape[dim])
	}
	start = max(0, min(start, int64(inShape[dim])))
	offsets := make([]uint32, len(inShape))
	offsets[dim] = uint32(start)
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNStaticSlice, Offsets: offsets, Sizes: outShape, Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}})
	return nil
}

func (p *preprocessor) visitCat(n *ir.Node) error {
	a, out := n.Arg("tensors"), n.FirstOutput()
	if a == nil || len(a.Values) < 2 || len(a.Values) > 5 {
		return fmt.Errorf("XNNPACK concatenates 2 to 5 tensors")
	}
	for _, v := range a.Values {
		if err := p.define(v, tensorOpts{}); err != nil {
			return err
		}
	}
	if err := p.define(out, tensorOpts{}); err != nil {
		return err
	}
	axis := int(n.IntArg("dim", 0))
	if axis < 0 {
		axis += a.Values[0].Rank()
	}
	if axis < 0 || axis >= out.Rank() {
		return fmt.Errorf("cat dim %d out of range", n.IntArg("dim", 0))
	}
	if p.nhwc[out] {
		axis = nhwcAxis(axis)
	}
	ops := []schema.XNodeUnion{schema.XNodeUnionXNNConcatenate2, schema.XNodeUnionXNNConcatenate3, schema.XNodeUnionXNNConcatenate4, schema.XNodeUnionXNNConcatenate5}
	ins := make([]uint32, len(a.Values))
	for i, v := range a.Values {
		ins[i] = p.ids[v]
	}
	p.node(n, xnngraph.Node{Op: ops[len(ins)-2], Axis: uint32(axis), Inputs: ins, Outputs: []uint32{p.ids[out]}})
	return nil
}

func (p *preprocessor) visitPad(n *ir.Node) error {
	in, out := n.FirstTensorArg(), n.FirstOutput()
	if err := p.defineIO(n, false); err != nil {
		return err
	}
	pads := n.IntsArg("pad", nil)
	r := in.Rank()
	if len(pads)%2 != 0 || len(pads) > 2*r {
		return fmt.Errorf("padding %v does not fit rank %d", pads, r)
	}
	all := make([]int64, 2*r)
	copy(all, pads)
	pre, post := make([]uint32, r), make([]uint32, r)
	// pad lists (left, right) pairs from the last dimension backwards.
	for d := 0; d < r; d++ {
		lo, hi := all[2*(r-1-d)], all[2*(r-1-d)+1]
		if lo < 0 || hi < 0 {
			return fmt.Errorf("negative padding %v", pads)
		}
		pre[d], post[d] = uint32(lo), uint32(hi)
	}
	if p.nhwc[out] {
		if r != 4 {
			return fmt.Errorf("a channels-last pad must be 4-d")
		}
		pre = []uint32{pre[0], pre[2], pre[3], pre[1]}
		post = []uint32{post[0], post[2], post[3], post[1]}
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNStaticConstantPad, PrePadding: pre, PostPadding: post, PadValue: float32(n.ScalarArg("value", 0)),
		Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}})
	return nil
}
