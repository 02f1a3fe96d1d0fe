package aot

import (
	"slices"
	"strings"

	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
)

// config is one rule of the admission policy: the Edge operator it matches, the precisions it
// supports, the ATen operator it keeps whole through the lowering to Edge, its own checks beyond
// the common ones, and the dependencies it claims with a node.
type config struct {
	name       string // ExecuTorch's class name, for reports
	target     string // formatted Edge target: "convolution.default"
	precisions []Precision
	keepWhole  string // "aten.linear.default"; "" for none
	noCommon   bool   // skips the common constraints (MaxDim, the affine quantisation ops)
	quantOp    bool   // a q/dq/choose_qparams op: int8 and int32 tensors are valid
	check      func(p *Partitioner, f *graphFacts, n *ir.Node) *partition.Decline
	// deps returns the claim for an admitted node; nil means the node alone (plus, for generic
	// ops with static quantisation enabled, its dq inputs and q output).
	deps func(p *Partitioner, f *graphFacts, n *ir.Node) partition.Claim
}

var (
	fOnly = []Precision{FP32}
	fs    = []Precision{FP32, StaticQuant}
	fsd   = []Precision{FP32, StaticQuant, DynamicQuant}
)

// configs is ALL_PARTITIONER_CONFIGS of ExecuTorch 1.5, in its order (EluConfig is disabled
// there too).
var configs = []*config{
	generic("AbsConfig", "abs.default", fOnly, nil),
	generic("AddConfig", "add.Tensor", fs, checkAlpha("add"), "relu.default"),
	gemmConfig("AddmmConfig", "addmm.default", fsd, "", "mat2", "self", "mat1", true),
	generic("AvgPoolingConfig", "avg_pool2d.default", fOnly, checkAvgPool),
	{name: "BatchNormConfig", target: "_native_batch_norm_legit_no_training.default", precisions: fOnly, check: checkBatchNorm, deps: batchNormDeps},
	generic("BMMConfig", "bmm.default", fOnly, nil),
	generic("CatConfig", "cat.default", fs, checkCat),
	generic("CeilConfig", "ceil.default", fOnly, nil),
	generic("CloneConfig", "clone.default", fOnly, checkClone),
	generic("CloneDimOrderConfig", "_clone_dim_order.default", fOnly, checkCloneDimOrder),
	generic("ConstantPadConfig", "constant_pad_nd.default", fOnly, checkConstantPad),
	gemmConfig("ConvolutionConfig", "convolution.default", fsd, "", "weight", "bias", "input", false),
	generic("ClampConfig", "clamp.default", fs, nil),
	generic("DivConfig", "div.Tensor", fOnly, nil),
	generic("ExpConfig", "exp.default", fOnly, nil),
	generic("FloorConfig", "floor.default", fOnly, nil),
	generic("GeluConfig", "gelu.default", fOnly, checkGelu),
	generic("HardtanhConfig", "hardtanh.default", fs, nil),
	keep(generic("HardswishConfig", "hardswish.default", fOnly, nil), "aten.hardswish.default"),
	generic("LeakyReLUConfig", "leaky_relu.default", fOnly, nil),
	gemmConfig("LinearConfig", "linear.default", fsd, "aten.linear.default", "weight", "bias", "input", true),
	generic("LogConfig", "log.default", fOnly, nil),
	{name: "MaxDimConfig", target: "max.dim", precisions: fOnly, noCommon: true, check: checkMaxDim},
	generic("MaximumConfig", "maximum.default", fOnly, nil),
	keep(generic("MaxPool2dConfig", "max_pool2d.default", fs, checkMaxPool), "aten.max_pool2d.default"),
	generic("MeanDimConfig", "mean.dim", fs, checkMeanDim),
	generic("MinimumConfig", "minimum.default", fOnly, nil),
	gemmConfig("MMConfig", "mm.default", fsd, "", "mat2", "", "self", true),
	generic("MulConfig", "mul.Tensor", fs, nil),
	generic("NegConfig", "neg.default", fOnly, nil),
	generic("PermuteConfig", "permute_copy.default", fs, nil),
	generic("PowConfig", "pow.Tensor_Scalar", fOnly, checkPow),
	{name: "PreluConfig", target: "prelu.default", precisions: fOnly, keepWhole: "aten.prelu.default", check: checkPrelu, deps: preluDeps},
	generic("ReciprocalSquareRootConfig", "rsqrt.default", fOnly, nil),
	generic("ReLUConfig", "relu.default", fs, nil),
	generic("TanhConfig", "tanh.default", fOnly, nil),
	generic("ToDimOrderCopyConfig", "_to_dim_order_copy.default", fs, checkToDimOrderCopy),
	generic("SigmoidConfig", "sigmoid.default", fOnly, nil),
	generic("SinConfig", "sin.default", fOnly, nil),
	generic("CosConfig", "cos.default", fOnly, nil),
	generic("SliceCopyConfig", "slice_copy.Tensor", fs, checkSlice),
	generic("SoftmaxConfig", "_softmax.default", fOnly, checkSoftmax),
	generic("SquareRootConfig", "sqrt.default", fOnly, nil),
	generic("SubConfig", "sub.Tensor", fs, checkAlpha("sub")),
	generic("UnsqueezeCopyConfig", "unsqueeze_copy.default", fs, checkUnsqueeze),
	keep(generic("UpsampleBilinear2dConfig", "upsample_bilinear2d.vec", fOnly, checkUpsample), "aten.upsample_bilinear2d.vec"),
	generic("ViewCopyConfig", "view_copy.default", fs, checkViewCopy),
	nodeOnly(&config{name: "QuantizedPerTensorConfig", target: "quantize_per_tensor.default", precisions: []Precision{StaticQuant}, quantOp: true}),
	nodeOnly(&config{name: "DeQuantizedPerTensorConfig", target: "dequantize_per_tensor.default", precisions: []Precision{StaticQuant}, quantOp: true}),
	affine("QuantizeAffineConfig", "quantize_affine.default", "torchao.quantize_affine.default"),
	affine("DeQuantizeAffineConfig", "dequantize_affine.default", "torchao.dequantize_affine.default"),
	affine("ChooseQParamsAffineConfig", "choose_qparams_affine.default", "torchao.choose_qparams_affine.default"),
}

var configByTarget = func() map[string]*config {
	m := make(map[string]*config, len(configs))
	for _, c := range configs {
		m[c.target] = c // TestConfigTable checks targets are unique
	}
	return m
}()

func keep(c *config, aten string) *config { c.keepWhole = aten; return c }

func nodeOnly(c *config) *config {
	c.deps = func(_ *Partitioner, _ *graphFacts, n *ir.Node) partition.Claim {
		return partition.Claim{Nodes: []*ir.Node{n}}
	}
	return c
}

// affine configs exist only to keep torchao's affine quantisation ops whole; they claim nothing.
func affine(name, target, aten string) *config {
	return &config{name: name, target: target, precisions: []Precision{DynamicQuant}, keepWhole: aten, noCommon: true, quantOp: true,
		deps: func(*Partitioner, *graphFacts, *ir.Node) partition.Claim { return partition.Claim{} }}
}

// generic is a config that claims the node alone, or, with static quantisation enabled and the
// node sitting between dq inputs and a q output (through one of fusedActs), the whole q/dq
// island.
func generic(name, target string, precisions []Precision, check func(*Partitioner, *graphFacts, *ir.Node) *partition.Decline, fusedActs ...string) *config {
	c := &config{name: name, target: target, precisions: precisions, check: check}
	c.deps = func(p *Partitioner, f *graphFacts, n *ir.Node) partition.Claim {
		claim := partition.Claim{Nodes: []*ir.Node{n}}
		if !slices.Contains(p.enabled(c), StaticQuant) {
			return claim
		}
		var island []*ir.Node
		for _, v := range tensorInputs(n) {
			if v.Producer == nil || !isDequant(v.Producer) {
				return claim
			}
			island = append(island, v.Producer)
		}
		if len(n.Outputs) != 1 {
			return claim
		}
		out := f.soleUser(n.Outputs[0])
		if out != nil && slices.Contains(fusedActs, formatTarget(out.Target)) && len(out.Outputs) == 1 {
			island = append(island, out)
			if next := f.soleUser(out.Outputs[0]); next != nil {
				out = next
			}
		}
		if out == nil || !isQuant(out) {
			return claim
		}
		claim.Nodes = append(claim.Nodes, append(island, out)...)
		return claim
	}
	return c
}

func isDequant(n *ir.Node) bool { return strings.HasPrefix(formatTarget(n.Target), "dequantize_") }
func isQuant(n *ir.Node) bool   { return strings.HasPrefix(formatTarget(n.Target), "quantize_") }

// gemmConfig is a config for a weight-carrying matrix op (linear, convolution, addmm, mm): the weight
// and bias must be parameters (the backend packs them into its blob) and are claimed with the
// node, as is one trailing relu or hardtanh, which XNNPACK fuses. linearLike marks the ops
// whose fp32 weight ForceNonStaticWeightsForF32Linear leaves outside.
func gemmConfig(name, target string, precisions []Precision, aten, weight, bias, act string, linearLike bool) *config {
	c := &config{name: name, target: target, precisions: precisions, keepWhole: aten}
	c.check = func(p *Partitioner, f *graphFacts, n *ir.Node) *partition.Decline {
		_, d := gemmDeps(p, c, f, n, weight, bias, linearLike)
		if d != nil || target != "convolution.default" {
			return d
		}
		if k := rank(n.TensorArg(weight)); k-2 > 2 {
			return decline(partition.Geometry, "%d-D convolution; XNNPACK supports 1-D and 2-D", k-2)
		}
		return nil
	}
	c.deps = func(p *Partitioner, f *graphFacts, n *ir.Node) partition.Claim {
		claim, _ := gemmDeps(p, c, f, n, weight, bias, linearLike)
		return claim
	}
	return c
}

// gemmDeps is GEMMConfig.get_deps for the fp32 path. A weight produced by a dequantize node is a
// quantised GEMM: with only fp32 enabled, linear then runs as fp32 without taking the weight (as
// ExecuTorch does); the quantised paths themselves are not implemented yet and decline.
func gemmDeps(p *Partitioner, c *config, f *graphFacts, n *ir.Node, weight, bias string, linearLike bool) (partition.Claim, *partition.Decline) {
	claim := partition.Claim{Nodes: []*ir.Node{n}}
	w := n.TensorArg(weight)
	if w == nil {
		return claim, decline(partition.Geometry, "%s has no %s argument", n.Target, weight)
	}
	takeWeight := !(linearLike && p.ForceNonStaticWeightsForF32Linear)
	if w.Producer != nil && isDequant(w.Producer) {
		if !slices.Equal(p.enabled(c), fOnly) {
			return claim, decline(partition.PrecisionNotEnabled, "quantised %s (weight from %s): etgo does not partition quantised GEMMs yet", formatTarget(n.Target), w.Producer.Target)
		}
		if c.target != "linear.default" {
			return claim, decline(partition.NonConstantWeight, "weight %s is computed at run time (a dequantize node), not a parameter", w.Name)
		}
		takeWeight = false // quantised linear partitioned as fp32: the dq chain stays outside
	}
	if !p.ForceNonStaticWeightsForF32Linear && bias != "" && len(tensorInputs(n)) > 2 {
		if b := n.TensorArg(bias); b != nil {
			if !f.isParam(b) {
				return claim, decline(partition.NonConstantWeight, "bias %s is computed at run time, not a parameter", b.Name)
			}
			claim.Constants = append(claim.Constants, b)
		}
	}
	if takeWeight {
		if !f.isParam(w) {
			return claim, decline(partition.NonConstantWeight, "weight %s is computed at run time, not a parameter", w.Name)
		}
		claim.Constants = append(claim.Constants, w)
	}
	if len(n.Outputs) == 1 {
		if u := f.soleUser(n.Outputs[0]); u != nil {
			if t := formatTarget(u.Target); t == "relu.default" || t == "hardtanh.default" {
				claim.Nodes = append(claim.Nodes, u)
			}
		}
	}
	return claim, nil
}

func checkAlpha(op string) func(*Partitioner, *graphFacts, *ir.Node) *partition.Decline {
	return func(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
		if alpha := n.ScalarArg("alpha", 1); alpha < 1-1e-9 || alpha > 1+1e-9 {
			return decline(partition.Geometry, "%s with alpha %g; XNNPACK supports alpha 1", op, alpha)
		}
		return nil
	}
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

func checkAvgPool(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	kernel, _, padding := poolArgs(n)
	if n.BoolArg("ceil_mode", false) {
		return decline(partition.Geometry, "avg_pool2d with ceil_mode")
	}
	if n.BoolArg("count_include_pad", true) && (padding[0] != 0 || padding[1] != 0) {
		return decline(partition.Geometry, "avg_pool2d counting padding %v in the average", padding)
	}
	if d := n.IntArg("divisor_override", kernel[0]*kernel[1]); d != kernel[0]*kernel[1] {
		return decline(partition.Geometry, "avg_pool2d with divisor_override %d", d)
	}
	return nil
}

func checkMaxPool(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	kernel, stride, _ := poolArgs(n)
	if n.BoolArg("ceil_mode", false) && len(n.Outputs) > 0 && n.Outputs[0] != nil && n.Outputs[0].Meta != nil && !n.Outputs[0].Meta.IsStatic() {
		return decline(partition.DynamicShape, "max_pool2d with ceil_mode on a dynamic shape")
	}
	if stride[0] > kernel[0] || stride[1] > kernel[1] {
		return decline(partition.Geometry, "max_pool2d stride %v larger than its kernel %v", stride, kernel)
	}
	return nil
}

// onlyFirstOutputUsed is the "every user is getitem[0]" rule of BatchNorm and MaxDim.
func onlyFirstOutputUsed(f *graphFacts, n *ir.Node) bool {
	for i, v := range n.Outputs {
		if i > 0 && v != nil && (len(f.users[v]) > 0 || f.g.IsGraphOutput(v)) {
			return false
		}
	}
	return true
}

// checkBatchNorm admits a batch norm XNNPACK can fold into the conv or linear before it, or turn
// into a 1×1 depthwise convolution (batchnorm.go).
func checkBatchNorm(_ *Partitioner, f *graphFacts, n *ir.Node) *partition.Decline {
	if !onlyFirstOutputUsed(f, n) {
		return decline(partition.Geometry, "batch norm's saved statistics are used; XNNPACK only produces its output")
	}
	facts := f.bnFacts()
	if in := n.TensorArg("input"); in != nil && canFuseBatchNorm(in.Producer, n, facts) {
		return nil
	}
	return decomposeDecline(n, facts)
}

// batchNormDeps claims the statistics and affine parameters with the node.
func batchNormDeps(_ *Partitioner, f *graphFacts, n *ir.Node) partition.Claim {
	claim := partition.Claim{Nodes: []*ir.Node{n}}
	for _, v := range tensorInputs(n)[1:] {
		if f.isParam(v) {
			claim.Constants = append(claim.Constants, v)
		} else if v.Producer != nil {
			claim.Nodes = append(claim.Nodes, v.Producer)
		}
	}
	return claim
}

func checkCat(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	if k := len(tensorInputs(n)); k < 2 {
		return decline(partition.Geometry, "cat of %d distinct tensor(s); XNNPACK needs at least 2", k)
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
func checkClone(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	if a := n.Arg("memory_format"); a != nil && a.Kind == ir.ArgMemoryFormat && a.Int != memoryContiguous && a.Int != memoryPreserve {
		return decline(partition.Geometry, "clone changes the dim order (memory format %d)", a.Int)
	}
	return nil
}

func checkCloneDimOrder(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	order := n.IntsArg("dim_order", nil)
	if order == nil {
		return nil
	}
	for i, d := range order {
		if d != int64(i) {
			return decline(partition.Geometry, "_clone_dim_order to dim order %v changes the dim order", order)
		}
	}
	return nil
}

func checkConstantPad(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	for _, p := range n.IntsArg("pad", nil) {
		if p < 0 {
			return decline(partition.Geometry, "constant_pad_nd with negative padding %v (cropping)", n.IntsArg("pad", nil))
		}
	}
	return nil
}

func checkGelu(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	if len(n.Outputs) > 0 && n.Outputs[0] != nil && n.Outputs[0].Meta != nil && n.Outputs[0].Meta.DType == ir.Float16 {
		return decline(partition.UnsupportedDType, "XNNPACK has no float16 GELU")
	}
	return nil
}

func checkMaxDim(_ *Partitioner, f *graphFacts, n *ir.Node) *partition.Decline {
	in := firstInput(n)
	if r := rank(in); r != 4 {
		return decline(partition.Geometry, "max.dim on a rank-%d input; XNNPACK takes rank 4", r)
	}
	ok := func(dt ir.DType) bool { return dt == ir.Float32 || dt == ir.Float16 || dt == ir.Int8 }
	if len(n.Outputs) == 0 || n.Outputs[0] == nil || n.Outputs[0].Meta == nil || !ok(n.Outputs[0].Meta.DType) {
		return decline(partition.UnsupportedDType, "max.dim output dtype outside float32, float16, int8")
	}
	if !ok(in.Meta.DType) {
		return decline(partition.UnsupportedDType, "max.dim input is %s", in.Meta.DType)
	}
	if !onlyFirstOutputUsed(f, n) {
		return decline(partition.Geometry, "max.dim indices are used; XNNPACK only produces the values")
	}
	return nil
}

func checkMeanDim(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	in := firstInput(n)
	r := rank(in)
	if r != 4 {
		return decline(partition.Geometry, "mean.dim on a rank-%d input; XNNPACK averages rank-4 tensors", r)
	}
	if a := n.Arg("dtype"); a != nil && a.Kind == ir.ArgScalarType {
		return decline(partition.UnsupportedDType, "mean.dim with a dtype argument")
	}
	dims := n.IntsArg("dim", nil)
	norm := make([]int64, len(dims))
	for i, d := range dims {
		if d < -int64(r) || d >= int64(r) {
			return decline(partition.Geometry, "mean.dim dim %d out of range for rank %d", d, r)
		}
		if d < 0 {
			d += int64(r)
		}
		norm[i] = d
	}
	slices.Sort(norm)
	if !slices.Equal(norm, []int64{2, 3}) {
		return decline(partition.Geometry, "mean.dim over dims %v; XNNPACK averages over H and W (2, 3)", dims)
	}
	if !n.BoolArg("keepdim", false) {
		return decline(partition.Geometry, "mean.dim without keepdim")
	}
	return nil
}

func checkPow(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	a := n.Arg("exponent")
	if a == nil || a.Kind != ir.ArgInt {
		return decline(partition.Geometry, "pow with a non-integer exponent; XNNPACK lowers only x**2")
	}
	if a.Int != 2 {
		return decline(partition.Geometry, "pow with exponent %d; XNNPACK lowers only x**2", a.Int)
	}
	return nil
}

func checkPrelu(_ *Partitioner, f *graphFacts, n *ir.Node) *partition.Decline {
	ins := tensorInputs(n)
	if len(ins) < 2 || !f.isParam(ins[1]) {
		return decline(partition.NonConstantWeight, "prelu weight is computed at run time, not a parameter")
	}
	return nil
}

func preluDeps(_ *Partitioner, _ *graphFacts, n *ir.Node) partition.Claim {
	return partition.Claim{Nodes: []*ir.Node{n}, Constants: tensorInputs(n)[1:2]}
}

func checkToDimOrderCopy(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	in := firstInput(n)
	if in != nil && len(n.Outputs) > 0 && n.Outputs[0] != nil && in.Meta.DType != n.Outputs[0].Meta.DType {
		return decline(partition.UnsupportedDType, "conversion from %s to %s", in.Meta.DType, n.Outputs[0].Meta.DType)
	}
	return nil
}

func checkSlice(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	if s := n.IntArg("step", 1); s != 1 {
		return decline(partition.Geometry, "slice with step %d", s)
	}
	vals := []*ir.Value{firstInput(n)}
	if len(n.Outputs) > 0 {
		vals = append(vals, n.Outputs[0])
	}
	for _, v := range vals {
		if v == nil || v.Meta == nil {
			continue
		}
		for _, d := range v.Meta.Sizes {
			if !d.IsStatic() {
				return decline(partition.DynamicShape, "slice of %s, whose dim %s is symbolic", v.Name, d.Symbol)
			}
			if d.Size == 0 {
				return decline(partition.EmptyTensor, "slice of %s, which has a zero dim", v.Name)
			}
		}
	}
	return nil
}

func checkSoftmax(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	r := int64(rank(firstInput(n)))
	if d := n.IntArg("dim", -1); d != -1 && d != r-1 {
		return decline(partition.Geometry, "softmax over dim %d of a rank-%d tensor; XNNPACK takes the last dim", d, r)
	}
	return nil
}

func checkUnsqueeze(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	r := int64(rank(firstInput(n)))
	if d := n.IntArg("dim", 0); d != -1 && d != r {
		return decline(partition.Geometry, "unsqueeze at dim %d of a rank-%d tensor; XNNPACK adds trailing dims only", d, r)
	}
	return nil
}

func checkUpsample(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	if len(n.Outputs) > 0 && n.Outputs[0] != nil && n.Outputs[0].Meta != nil && !n.Outputs[0].Meta.IsStatic() {
		return decline(partition.DynamicShape, "bilinear upsampling to the dynamic size %s", n.Outputs[0].Meta)
	}
	return nil
}

func checkViewCopy(_ *Partitioner, _ *graphFacts, n *ir.Node) *partition.Decline {
	a := n.Arg("size")
	if a == nil {
		return nil
	}
	for i, v := range a.Values {
		if v != nil {
			return decline(partition.DynamicShape, "reshape to a symbolic size (entry %d is %s)", i, v.Name)
		}
	}
	inferred := 0
	for _, d := range a.Ints {
		if d == -1 {
			inferred++
		}
	}
	if inferred > 1 {
		return decline(partition.Geometry, "reshape with %d inferred (-1) dims", inferred)
	}
	return nil
}
