package aot

import (
	"slices"

	"github.com/etgo/etgo/backends/transforms"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// legacyConfigs are the configs of the families not yet registered (registry.go), while they
// move to their files.
func (p *Partitioner) legacyConfigs() []*configs.Config {
	return []*configs.Config{
		generic("AvgPoolingConfig", "avg_pool2d.default", fOnly, checkAvgPool),
		{Name: "BatchNormConfig", Target: "_native_batch_norm_legit_no_training.default", Precisions: fOnly, Check: checkBatchNorm, Claim: batchNormDeps},
		generic("CatConfig", "cat.default", fs, checkCat),
		generic("CloneConfig", "clone.default", fOnly, checkClone),
		generic("CloneDimOrderConfig", "_clone_dim_order.default", fOnly, checkCloneDimOrder),
		generic("ConstantPadConfig", "constant_pad_nd.default", fOnly, checkConstantPad),
		{Name: "MaxDimConfig", Target: "max.dim", Precisions: fOnly, SkipCommon: true, Check: checkMaxDim, Claim: configs.NodeOnly},
		keep(generic("MaxPool2dConfig", "max_pool2d.default", fs, checkMaxPool), "aten.max_pool2d.default"),
		generic("MeanDimConfig", "mean.dim", fs, checkMeanDim),
		generic("PermuteConfig", "permute_copy.default", fs, nil),
		generic("ToDimOrderCopyConfig", "_to_dim_order_copy.default", fs, checkToDimOrderCopy),
		generic("SliceCopyConfig", "slice_copy.Tensor", fs, checkSlice),
		generic("SoftmaxConfig", "_softmax.default", fOnly, checkSoftmax),
		generic("UnsqueezeCopyConfig", "unsqueeze_copy.default", fs, checkUnsqueeze),
		keep(generic("UpsampleBilinear2dConfig", "upsample_bilinear2d.vec", fOnly, checkUpsample), "aten.upsample_bilinear2d.vec"),
		generic("ViewCopyConfig", "view_copy.default", fs, checkViewCopy),
		{Name: "QuantizedPerTensorConfig", Target: "quantize_per_tensor.default", Precisions: []configs.Precision{configs.StaticQuant}, QuantOp: true, Claim: configs.NodeOnly},
		{Name: "DeQuantizedPerTensorConfig", Target: "dequantize_per_tensor.default", Precisions: []configs.Precision{configs.StaticQuant}, QuantOp: true, Claim: configs.NodeOnly},
		affine("QuantizeAffineConfig", "quantize_affine.default", "torchao.quantize_affine.default"),
		affine("DeQuantizeAffineConfig", "dequantize_affine.default", "torchao.dequantize_affine.default"),
		affine("ChooseQParamsAffineConfig", "choose_qparams_affine.default", "torchao.choose_qparams_affine.default"),
	}
}

// affine configs exist only to keep torchao's affine quantisation ops whole; they claim nothing.
func affine(name, target, aten string) *configs.Config {
	return &configs.Config{Name: name, Target: target, Precisions: []configs.Precision{configs.DynamicQuant}, KeepWhole: aten,
		SkipCommon: true, QuantOp: true, Claim: configs.Nothing}
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

// checkBatchNorm admits a batch norm XNNPACK can fold into the conv or linear before it, or turn
// into a 1×1 depthwise convolution, by the rules the rewrites apply (package transforms).
func checkBatchNorm(q *configs.Query, n *ir.Node) *partition.Decline {
	if !q.OnlyFirstOutputRead(n) {
		return partition.Declinef(partition.Geometry, "batch norm's saved statistics are used; XNNPACK only produces its output")
	}
	if in := n.TensorArg("input"); in != nil && transforms.CanFuseBatchNorm(in.Producer, n, q) {
		return nil
	}
	return transforms.DecomposeBatchNormDecline(n, q)
}

// batchNormDeps claims the statistics and affine parameters with the node.
func batchNormDeps(q *configs.Query, n *ir.Node) partition.Claim {
	claim := partition.Claim{Nodes: []*ir.Node{n}}
	for _, v := range n.TensorInputs()[1:] {
		if q.IsParam(v) {
			claim.Constants = append(claim.Constants, v)
		} else if v.Producer != nil {
			claim.Nodes = append(claim.Nodes, v.Producer)
		}
	}
	return claim
}

func checkCat(_ *configs.Query, n *ir.Node) *partition.Decline {
	if k := len(n.TensorInputs()); k < 2 {
		return partition.Declinef(partition.Geometry, "cat of %d distinct tensor(s); XNNPACK needs at least 2", k)
	}
	return nil
}

// Memory formats as torch serialises them.
const (
	memoryContiguous = 1
	memoryPreserve   = 4
)

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

func checkConstantPad(_ *configs.Query, n *ir.Node) *partition.Decline {
	for _, p := range n.IntsArg("pad", nil) {
		if p < 0 {
			return partition.Declinef(partition.Geometry, "constant_pad_nd with negative padding %v (cropping)", n.IntsArg("pad", nil))
		}
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

func checkToDimOrderCopy(_ *configs.Query, n *ir.Node) *partition.Decline {
	in := n.FirstTensorArg()
	if in != nil && len(n.Outputs) > 0 && n.Outputs[0] != nil && in.Meta.DType != n.Outputs[0].Meta.DType {
		return partition.Declinef(partition.UnsupportedDType, "conversion from %s to %s", in.Meta.DType, n.Outputs[0].Meta.DType)
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

func checkSoftmax(_ *configs.Query, n *ir.Node) *partition.Decline {
	r := int64(n.FirstTensorArg().Rank())
	if d := n.IntArg("dim", -1); d != -1 && d != r-1 {
		return partition.Declinef(partition.Geometry, "softmax over dim %d of a rank-%d tensor; XNNPACK takes the last dim", d, r)
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

func checkUpsample(_ *configs.Query, n *ir.Node) *partition.Decline {
	if len(n.Outputs) > 0 && n.Outputs[0] != nil && n.Outputs[0].Meta != nil && !n.Outputs[0].Meta.IsStatic() {
		return partition.Declinef(partition.DynamicShape, "bilinear upsampling to the dynamic size %s", n.Outputs[0].Meta)
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
