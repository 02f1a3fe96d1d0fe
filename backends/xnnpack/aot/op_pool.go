package aot

import (
	"fmt"
	"math"
	"slices"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// The pooling family, channels-last as XNNPACK pools (op_avg_pooling2d.py, op_max_pool2d.py,
// op_mean_dim.py as a global average pooling, op_max_dim.py as a max or argmax pooling). A
// max with indices whose indices nobody reads becomes its values-only operator
// (RemoveGetItemPass); a max.dim whose indices are read stays, as an argmax pooling.
func init() {
	register(family{
		name: "pooling",
		configs: func(*Partitioner) []*configs.Config {
			return []*configs.Config{
				generic("AvgPoolingConfig", "avg_pool2d.default", fOnly, checkAvgPool),
				{Name: "MaxDimConfig", Target: "max.dim", Precisions: fOnly, SkipCommon: true, Check: checkMaxDim, Claim: configs.NodeOnly},
				keep(generic("MaxPool2dConfig", "max_pool2d.default", fs, checkMaxPool), "aten.max_pool2d.default"),
				generic("MeanDimConfig", "mean.dim", fs, checkMeanDim),
			}
		},
		ops: []op{
			{target: "aten.avg_pool2d.default", visit: (*preprocessor).visitPool, layout: layoutNHWC},
			{target: "aten.max_pool2d.default", visit: (*preprocessor).visitPool, layout: layoutNHWC},
			{target: "aten.max_pool2d_with_indices.default", visit: (*preprocessor).visitPool, layout: layoutNHWC,
				valuesOnly: "aten.max_pool2d.default"},
			{target: "aten.mean.dim", visit: (*preprocessor).visitMean, layout: layoutNHWC},
			{target: "aten.amax.default", visit: (*preprocessor).visitMaxDim, layout: layoutNHWC},
			{target: "aten.max.dim", visit: (*preprocessor).visitMaxDim, layout: layoutNHWC,
				valuesOnly: "aten.amax.default", writesIndices: true},
		},
	})
}

// poolArgs normalises kernel_size, stride and padding as ExecuTorch's normalize_pool2d_args does:
// one value means both dims; an empty stride means the kernel size.
func poolArgs(n *ir.Node) (kernel, stride, padding [2]int64) {
	pair := func(v []int64, def [2]int64) [2]int64 {
		switch len(v) {
		case 0:
			return def
		case 1:
			return [2]int64{v[0], v[0]}
		}
		return [2]int64{v[0], v[1]}
	}
	kernel = pair(n.IntsArg("kernel_size", nil), [2]int64{1, 1})
	stride = pair(n.IntsArg("stride", nil), kernel)
	padding = pair(n.IntsArg("padding", nil), [2]int64{0, 0})
	return
}

func checkAvgPool(_ *configs.Query, n *ir.Node) *partition.Decline {
	kernel, _, padding := poolArgs(n)
	if n.BoolArg("ceil_mode", false) {
		return partition.Declinef(partition.Geometry, "avg_pool2d with ceil_mode")
	}
	if n.BoolArg("count_include_pad", true) && (padding[0] != 0 || padding[1] != 0) {
		return partition.Declinef(partition.Geometry, "avg_pool2d counting padding %v in the average", padding)
	}
	if d := n.IntArg("divisor_override", kernel[0]*kernel[1]); d != kernel[0]*kernel[1] {
		return partition.Declinef(partition.Geometry, "avg_pool2d with divisor_override %d", d)
	}
	return nil
}

func checkMaxPool(_ *configs.Query, n *ir.Node) *partition.Decline {
	kernel, stride, _ := poolArgs(n)
	if n.BoolArg("ceil_mode", false) && len(n.Outputs) > 0 && n.Outputs[0] != nil && n.Outputs[0].Meta != nil && !n.Outputs[0].Meta.IsStatic() {
		return partition.Declinef(partition.DynamicShape, "max_pool2d with ceil_mode on a dynamic shape")
	}
	if stride[0] > kernel[0] || stride[1] > kernel[1] {
		return partition.Declinef(partition.Geometry, "max_pool2d stride %v larger than its kernel %v", stride, kernel)
	}
	return nil
}

func checkMaxDim(q *configs.Query, n *ir.Node) *partition.Decline {
	in := n.FirstTensorArg()
	if r := in.Rank(); r != 4 {
		return partition.Declinef(partition.Geometry, "max.dim on a rank-%d input; XNNPACK takes rank 4", r)
	}
	ok := func(dt ir.DType) bool { return dt == ir.Float32 || dt == ir.Float16 || dt == ir.Int8 }
	if len(n.Outputs) == 0 || n.Outputs[0] == nil || n.Outputs[0].Meta == nil || !ok(n.Outputs[0].Meta.DType) {
		return partition.Declinef(partition.UnsupportedDType, "max.dim output dtype outside float32, float16, int8")
	}
	if !ok(in.Meta.DType) {
		return partition.Declinef(partition.UnsupportedDType, "max.dim input is %s", in.Meta.DType)
	}
	if !q.OnlyFirstOutputRead(n) {
		return partition.Declinef(partition.Geometry, "max.dim indices are used; XNNPACK only produces the values")
	}
	return nil
}

func checkMeanDim(_ *configs.Query, n *ir.Node) *partition.Decline {
	in := n.FirstTensorArg()
	r := in.Rank()
	if r != 4 {
		return partition.Declinef(partition.Geometry, "mean.dim on a rank-%d input; XNNPACK averages rank-4 tensors", r)
	}
	if a := n.Arg("dtype"); a != nil && a.Kind == ir.ArgScalarType {
		return partition.Declinef(partition.UnsupportedDType, "mean.dim with a dtype argument")
	}
	dims := n.IntsArg("dim", nil)
	norm := make([]int64, len(dims))
	for i, d := range dims {
		if d < -int64(r) || d >= int64(r) {
			return partition.Declinef(partition.Geometry, "mean.dim dim %d out of range for rank %d", d, r)
		}
		if d < 0 {
			d += int64(r)
		}
		norm[i] = d
	}
	slices.Sort(norm)
	if !slices.Equal(norm, []int64{2, 3}) {
		return partition.Declinef(partition.Geometry, "mean.dim over dims %v; XNNPACK averages over H and W (2, 3)", dims)
	}
	if !n.BoolArg("keepdim", false) {
		return partition.Declinef(partition.Geometry, "mean.dim without keepdim")
	}
	return nil
}

func (p *preprocessor) visitMean(n *ir.Node) error {
	in, out := n.FirstTensorArg(), n.FirstOutput()
	if err := p.defineIO(n, true); err != nil {
		return err
	}
	if in.Rank() != 4 {
		return fmt.Errorf("mean.dim needs a 4-d input")
	}
	if a := n.Arg("dtype"); a != nil && a.Kind == ir.ArgScalarType {
		return fmt.Errorf("mean.dim with a dtype is not supported")
	}
	dims := n.IntsArg("dim", nil)
	seen := map[int64]bool{}
	for _, d := range dims {
		if d < 0 {
			d += 4
		}
		seen[d] = true
	}
	if len(dims) != 2 || !seen[2] || !seen[3] {
		return fmt.Errorf("only the mean over the two innermost dimensions is supported (dims %v)", dims)
	}
	if !n.BoolArg("keepdim", false) {
		return fmt.Errorf("only mean.dim that keeps dims is supported")
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNGlobalAvgPooling2d, Flags: xnngraph.FlagKeepDims, Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}})
	return nil
}

// poolGeometry is poolArgs as unsigned XNNPACK parameters, with the dilation (default 1).
func poolGeometry(n *ir.Node) (kernel, stride, pad, dil [2]uint32, err error) {
	k, s, pd := poolArgs(n)
	d := [2]int64{1, 1}
	if v := n.IntsArg("dilation", nil); len(v) == 1 {
		d = [2]int64{v[0], v[0]}
	} else if len(v) == 2 {
		d = [2]int64{v[0], v[1]}
	}
	for i, x := range [][2]int64{k, s, pd, d} {
		if x[0] < 0 || x[1] < 0 || x[0] > math.MaxUint32 || x[1] > math.MaxUint32 {
			return kernel, stride, pad, dil, fmt.Errorf("pooling parameter %d (%v) out of range", i, x)
		}
	}
	u := func(x [2]int64) [2]uint32 { return [2]uint32{uint32(x[0]), uint32(x[1])} }
	return u(k), u(s), u(pd), u(d), nil
}

func (p *preprocessor) visitPool(n *ir.Node) error {
	in, out := n.FirstTensorArg(), n.FirstOutput()
	if n.Target == "aten.max_pool2d_with_indices.default" {
		if len(n.Outputs) > 1 && n.Outputs[1] != nil && (len(p.g.Users()[n.Outputs[1]]) > 0 || p.g.IsGraphOutput(n.Outputs[1])) {
			return fmt.Errorf("the indices of max_pool2d_with_indices are used; XNNPACK's max pooling returns values only")
		}
	}
	// Only the values output is defined (RemoveGetItemPass).
	if err := p.define(out, tensorOpts{nhwc: true}); err != nil {
		return err
	}
	if err := p.define(in, tensorOpts{nhwc: true}); err != nil {
		return err
	}
	if in.Rank() != 4 {
		return fmt.Errorf("pooling needs a 4-d input")
	}
	kernel, stride, pad, dil, err := poolGeometry(n)
	if err != nil {
		return err
	}
	pp := &xnngraph.PoolParams{PadTop: pad[0], PadRight: pad[1], PadBottom: pad[0], PadLeft: pad[1], PoolH: kernel[0], PoolW: kernel[1],
		StrideH: stride[0], StrideW: stride[1]}
	op := schema.XNodeUnionXNNAvgPooling2d
	if n.Target == "aten.avg_pool2d.default" {
		if n.BoolArg("ceil_mode", false) {
			return fmt.Errorf("average pooling with ceil_mode is not supported")
		}
		if a := n.Arg("divisor_override"); a != nil && a.Kind == ir.ArgInt {
			return fmt.Errorf("average pooling with divisor_override is not supported")
		}
	} else {
		op = schema.XNodeUnionXNNMaxPooling2d
		pp.DilationH, pp.DilationW = dil[0], dil[1]
		if n.BoolArg("ceil_mode", false) {
			sz := in.Meta.Sizes
			pp.PadBottom += ceilPad(sz[2].Size, kernel[0], stride[0], pad[0], dil[0])
			pp.PadRight += ceilPad(sz[3].Size, kernel[1], stride[1], pad[1], dil[1])
		}
	}
	p.node(n, xnngraph.Node{Op: op, Pool: pp, Flags: xnngraph.FlagKeepDims, Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}})
	return nil
}

// ceilPad is the extra trailing padding that makes floor-mode pooling produce ceil-mode's
// output size (the max_pool2d visitor's calculate_pad_amount_1d).
func ceilPad(in int64, kernel, stride, pad, dil uint32) uint32 {
	k, s, pd, d := int64(kernel), int64(stride), int64(pad), int64(dil)
	if s == 0 {
		return 0
	}
	noCeil := in + 2*pd - d*(k-1) - 1
	numer := noCeil + s - 1
	outSize := numer/s + 1
	needsAdjust := (outSize-1)*s >= in+pd
	partial := noCeil % s
	if partial > 0 && !needsAdjust {
		return uint32(s - partial)
	}
	return 0
}

func (p *preprocessor) visitMaxDim(n *ir.Node) error {
	in, out := n.FirstTensorArg(), n.FirstOutput()
	if !n.BoolArg("keepdim", false) {
		return fmt.Errorf("%s only supports keepdim=True", n.Target)
	}
	dim := n.IntArg("dim", -1)
	if dims := n.IntsArg("dim", nil); len(dims) == 1 {
		dim = dims[0]
	}
	if dim != 2 && dim != 3 {
		return fmt.Errorf("%s only supports dim 2 or 3", n.Target)
	}
	if err := p.define(out, tensorOpts{nhwc: true}); err != nil {
		return err
	}
	if err := p.define(in, tensorOpts{nhwc: true}); err != nil {
		return err
	}
	shape := p.out.Values[p.ids[in]].Dims // NHWC
	if len(shape) != 4 {
		return fmt.Errorf("needs a 4-d input")
	}
	ph, pw := uint32(1), uint32(1)
	if dim == 2 {
		ph = shape[1]
	} else {
		pw = shape[2]
	}
	if n.Target == "aten.amax.default" {
		p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNMaxPooling2d, Pool: &xnngraph.PoolParams{PoolH: ph, PoolW: pw, StrideH: ph, StrideW: pw, DilationH: 1, DilationW: 1},
			Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out]}})
		return nil
	}
	if len(n.Outputs) < 2 || n.Outputs[1] == nil {
		return fmt.Errorf("max.dim needs both its values and its indices")
	}
	if err := p.define(n.Outputs[1], tensorOpts{nhwc: true}); err != nil {
		return err
	}
	p.node(n, xnngraph.Node{Op: schema.XNodeUnionXNNArgMaxPooling2d, Pool: &xnngraph.PoolParams{PoolH: ph, PoolW: pw},
		Inputs: []uint32{p.ids[in]}, Outputs: []uint32{p.ids[out], p.ids[n.Outputs[1]]}})
	return nil
}
