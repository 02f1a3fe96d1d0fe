package aot

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// The shape family: reshapes (op_view_copy.py, op_squeeze.py), permutation (op_permute.py),
// slicing (op_slice_copy.py), concatenation (op_cat.py) and constant padding
// (op_static_constant_pad.py). The reshapes state their sizes in the default layout, so they
// read NCHW; the others follow their input's layout and remap their axes when it is
// channels-last.
func init() {
	register(family{
		name: "shape",
		configs: func(*Partitioner) []*configs.Config {
			return []*configs.Config{
				generic("CatConfig", "cat.default", fs, checkCat),
				generic("ConstantPadConfig", "constant_pad_nd.default", fOnly, checkConstantPad),
				generic("PermuteConfig", "permute_copy.default", fs, nil),
				generic("SliceCopyConfig", "slice_copy.Tensor", fs, checkSlice),
				generic("UnsqueezeCopyConfig", "unsqueeze_copy.default", fs, checkUnsqueeze),
				generic("ViewCopyConfig", "view_copy.default", fs, checkViewCopy),
			}
		},
		ops: []op{
			{target: "aten.view_copy.default", visit: visitViewCopy, layout: layoutNCHW},
			{target: "aten.squeeze_copy.dim", visit: reshapeLastVisitor(false), layout: layoutNCHW},
			{target: "aten.unsqueeze_copy.default", visit: reshapeLastVisitor(true), layout: layoutNCHW},
			{target: "aten.permute_copy.default", visit: visitPermute},
			{target: "aten.slice_copy.Tensor", visit: (*preprocessor).visitSlice},
			{target: "aten.cat.default", visit: (*preprocessor).visitCat},
			{target: "aten.constant_pad_nd.default", visit: (*preprocessor).visitPad},
		},
	})
}

func visitViewCopy(p *preprocessor, n *ir.Node) error {
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
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNStaticReshape, NewShape: shape, Inputs: []uint32{p.ids[n.FirstTensorArg()]}, Outputs: []uint32{p.ids[n.FirstOutput()]}})
	return nil
}

// reshapeLastVisitor writes a squeeze (or, with unsqueeze, an unsqueeze) of the last dim as a
// reshape to the output's sizes.
func reshapeLastVisitor(unsqueeze bool) visitor {
	return func(p *preprocessor, n *ir.Node) error {
		in, out := n.FirstTensorArg(), n.FirstOutput()
		d, r := n.IntArg("dim", 0), in.Rank()
		last := int64(r - 1)
		if unsqueeze {
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
		p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNStaticReshape, NewShape: shape, Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}})
		return nil
	}
}

func visitPermute(p *preprocessor, n *ir.Node) error {
	in, out := n.FirstTensorArg(), n.FirstOutput()
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
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNStaticTranspose, Perm: perm, Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}})
	return nil
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

func checkCat(_ *configs.Query, n *ir.Node) *partition.Decline {
	if k := len(n.TensorInputs()); k < 2 {
		return partition.Declinef(partition.Geometry, "cat of %d distinct tensor(s); XNNPACK needs at least 2", k)
	}
	return nil
}

func checkConstantPad(_ *configs.Query, n *ir.Node) *partition.Decline {
	for _, p := range n.IntsArg("pad", nil) {
		if p < 0 {
			return partition.Declinef(partition.Geometry, "constant_pad_nd with negative padding %v (cropping)", n.IntsArg("pad", nil))
		}
	}
	return nil
}

func checkSlice(_ *configs.Query, n *ir.Node) *partition.Decline {
	if s := n.IntArg("step", 1); s != 1 {
		return partition.Declinef(partition.Geometry, "slice with step %d", s)
	}
	vals := []*ir.Value{n.FirstTensorArg()}
	if len(n.Outputs) > 0 {
		vals = append(vals, n.Outputs[0])
	}
	for _, v := range vals {
		if v == nil || v.Meta == nil {
			continue
		}
		for _, d := range v.Meta.Sizes {
			if !d.IsStatic() {
				return partition.Declinef(partition.DynamicShape, "slice of %s, whose dim %s is symbolic", v.Name, d.Symbol)
			}
			if d.Size == 0 {
				return partition.Declinef(partition.EmptyTensor, "slice of %s, which has a zero dim", v.Name)
			}
		}
	}
	return nil
}

func checkUnsqueeze(_ *configs.Query, n *ir.Node) *partition.Decline {
	r := int64(n.FirstTensorArg().Rank())
	if d := n.IntArg("dim", 0); d != -1 && d != r {
		return partition.Declinef(partition.Geometry, "unsqueeze at dim %d of a rank-%d tensor; XNNPACK adds trailing dims only", d, r)
	}
	return nil
}

func checkViewCopy(_ *configs.Query, n *ir.Node) *partition.Decline {
	a := n.Arg("size")
	if a == nil {
		return nil
	}
	for i, v := range a.Values {
		if v != nil {
			return partition.Declinef(partition.DynamicShape, "reshape to a symbolic size (entry %d is %s)", i, v.Name)
		}
	}
	inferred := 0
	for _, d := range a.Ints {
		if d == -1 {
			inferred++
		}
	}
	if inferred > 1 {
		return partition.Declinef(partition.Geometry, "reshape with %d inferred (-1) dims", inferred)
	}
	return nil
}
