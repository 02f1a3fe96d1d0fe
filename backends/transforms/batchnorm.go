package transforms

import (
	"fmt"
	"math"
	"slices"

	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
)

// The batch-norm rules, shared by a partitioner (which claims a batch norm only if preprocess
// will fold or decompose it) and the passes that do, so the two cannot drift: ExecuTorch's
// BatchNormConfig asks FuseBatchNormPass.can_fuse and DecomposeBatchNorm.can_decompose_batch_norm,
// the very functions its passes then apply.

const (
	targetConv      = "aten.convolution.default"
	targetLinear    = "aten.linear.default"
	targetBatchNorm = "aten._native_batch_norm_legit_no_training.default"
)

// Facts is what the rules ask of the graph they run on, which a partitioner (configs.Facts)
// and the passes know in their own ways.
type Facts interface {
	IsParam(*ir.Value) bool // a parameter, buffer or lifted constant (is_param_node)
	Read(*ir.Value) bool    // a node or the graph's outputs read the value
}

// graphFacts are the rules' facts of a graph being rewritten, whose users are users.
type graphFacts struct {
	g      *ir.Graph
	params *Params
	users  map[*ir.Value][]*ir.Node
}

func (f graphFacts) IsParam(v *ir.Value) bool { return f.params.Is(v) }
func (f graphFacts) Read(v *ir.Value) bool    { return len(f.users[v]) > 0 || f.g.IsGraphOutput(v) }

// onlyOutputRead is the "every user is getitem[0]" rule: the saved statistics (outputs 1 and 2)
// are not read.
func onlyOutputRead(bn *ir.Node, f Facts) bool {
	for i, v := range bn.Outputs {
		if i > 0 && v != nil && f.Read(v) {
			return false
		}
	}
	return true
}

// CanFuseBatchNorm is FuseBatchNormPass.can_fuse: prev is a convolution (of a rank 3 or 4 input)
// or a linear, only bn's output is read, and both weights are parameters. It also asks that the
// other values the fusion reads (bn's bias and statistics, prev's bias) be parameters:
// ExecuTorch's can_fuse does not check them and its _fuse_ops then fails on a computed one; etgo
// does not fuse such a batch norm (and a partitioner asking DecomposeBatchNormDecline declines it).
func CanFuseBatchNorm(prev, bn *ir.Node, f Facts) bool {
	if prev == nil || (prev.Target != targetConv && prev.Target != targetLinear) || !onlyOutputRead(bn, f) {
		return false
	}
	if !f.IsParam(prev.TensorArg("weight")) || !f.IsParam(bn.TensorArg("weight")) {
		return false
	}
	for _, name := range []string{"bias", "running_mean", "running_var"} {
		if v := bn.TensorArg(name); (v == nil && name != "bias") || (v != nil && !f.IsParam(v)) {
			return false
		}
	}
	if b := prev.TensorArg("bias"); b != nil && !f.IsParam(b) {
		return false
	}
	if prev.Target == targetConv {
		if r := prev.TensorArg("input").Rank(); r != 3 && r != 4 {
			return false
		}
	}
	return true
}

// DecomposeBatchNormDecline is DecomposeBatchNorm.can_decompose_batch_norm with its reason: nil when the
// batch norm can become a 1×1 depthwise convolution (an input of rank 2 to 4 with a static
// channel count, only the output read, parameters for the affine weights and the statistics, a
// constant eps).
func DecomposeBatchNormDecline(bn *ir.Node, f Facts) *partition.Decline {
	in := bn.TensorArg("input")
	if r := in.Rank(); r < 2 || r > 4 {
		return partition.Declinef(partition.Geometry, "batch norm input of rank %d; a depthwise convolution takes rank 2 to 4", r)
	}
	if !onlyOutputRead(bn, f) {
		return partition.Declinef(partition.Geometry, "batch norm's saved statistics are used; a convolution produces only its output")
	}
	if !in.Meta.Sizes[1].IsStatic() {
		return partition.Declinef(partition.DynamicShape, "batch norm channel dim is the symbol %s", in.Meta.Sizes[1].Symbol)
	}
	for _, name := range []string{"weight", "bias", "running_mean", "running_var"} {
		v := bn.TensorArg(name)
		if v == nil && (name == "weight" || name == "bias") {
			continue
		}
		if !f.IsParam(v) {
			return partition.Declinef(partition.NonConstantWeight, "batch norm %s is computed at run time, not a parameter", name)
		}
	}
	if a := bn.Arg("eps"); a != nil && a.Kind != ir.ArgFloat && a.Kind != ir.ArgInt {
		return partition.Declinef(partition.DynamicShape, "batch norm eps is not a constant")
	}
	return nil
}

// FuseBatchNorm folds an inference batch norm into the convolution or linear before it
// (FuseBatchNormPass), with torch.nn.utils.fusion's arithmetic, so the fused weights are the
// bytes ExecuTorch stores.
type FuseBatchNorm struct{}

func (FuseBatchNorm) Name() string { return "FuseBatchNormPass" }

func (FuseBatchNorm) Run(g *ir.Graph) (_ string, err error) {
	defer recovered(&err)
	ps := ParamsOf(g)
	users := g.Users()
	fused := 0
	for _, n := range slices.Clone(g.Nodes) {
		isConv, isLinear := n.Target == targetConv, n.Target == targetLinear
		out := n.FirstOutput()
		if !(isConv || isLinear) || out == nil || len(users[out]) != 1 || g.IsGraphOutput(out) {
			continue
		}
		bn := users[out][0]
		if bn.Target != targetBatchNorm || bn.TensorArg("input") != out {
			continue
		}
		if !CanFuseBatchNorm(n, bn, graphFacts{g, ps, users}) {
			continue
		}
		if err := fuseBatchNormInto(g, ps, n, bn, isConv); err != nil {
			return "", fmt.Errorf("node %s: %w", bn.Name, err)
		}
		fused++
		users = g.Users()
	}
	return passes.Changes(fused, "fused %d batch norm(s) into the convolution or linear before"), nil
}

func fuseBatchNormInto(g *ir.Graph, ps *Params, n, bn *ir.Node, isConv bool) error {
	wv, bv := n.TensorArg("weight"), n.TensorArg("bias")
	w, err := ps.Float32s(wv)
	if err != nil {
		return err
	}
	b, err := ps.Float32s(bv)
	if err != nil {
		return err
	}
	var stats [4][]float32 // weight, bias, mean, var
	for i, name := range []string{"weight", "bias", "running_mean", "running_var"} {
		if stats[i], err = ps.Float32s(bn.TensorArg(name)); err != nil {
			return err
		}
	}
	mean, variance := stats[2], stats[3]
	ch := len(mean)
	if len(variance) != ch || (stats[0] != nil && len(stats[0]) != ch) || (stats[1] != nil && len(stats[1]) != ch) || (b != nil && len(b) != ch) {
		return fmt.Errorf("batch-norm statistics disagree in length")
	}
	gamma, beta := stats[0], stats[1]
	if gamma == nil {
		gamma = filled(ch, 1)
	}
	if beta == nil {
		beta = filled(ch, 0)
	}
	if b == nil {
		b = filled(ch, 0)
	}
	// torch's fuse_*_bn_weights compute in the tensors' dtype: for half-precision weights each
	// operation is done in float32 (c10's opmath) and rounded to that dtype, and the results
	// keep it (.to(dtype=conv_weight_dtype)). Mixed dtypes would promote differently.
	dt := wv.Meta.DType
	r, err := roundTo(dt)
	if err != nil {
		return fmt.Errorf("weight %s: %w", wv.Name, err)
	}
	bdt := dt
	if bv != nil {
		bdt = bv.Meta.DType
	}
	if dt != ir.Float32 {
		for _, v := range []*ir.Value{bv, bn.TensorArg("weight"), bn.TensorArg("bias"), bn.TensorArg("running_mean"), bn.TensorArg("running_var")} {
			if v != nil && v.Meta != nil && v.Meta.DType != dt {
				return fmt.Errorf("batch norm over %s weight %s: %s is %s; mixed dtypes are not fused", dt, wv.Name, v.Name, v.Meta.DType)
			}
		}
	}
	eps := float32(bn.ScalarArg("eps", 1e-5))
	// rsqrt(var + eps), each step rounded as torch computes it (the Python scalar eps enters
	// as float32 opmath, unrounded).
	// torch's CPU rsqrt of float16 differs by lane: the vectorized part (whole vectors of 32
	// halves, AVX-512's Vectorized<Half>, the machine the fixtures were made on) computes
	// 1/sqrt in float32 and rounds once; the remainder rounds sqrt to half, then its
	// reciprocal (testdata/fp16/linear_bn shows both).
	rs := make([]float32, ch)
	for c := range rs {
		x := r(variance[c] + eps)
		if dt == ir.Float16 && c >= ch/32*32 {
			s := round64(math.Sqrt(float64(x)), dt, r)
			rs[c] = round64(1/float64(s), dt, r)
			continue
		}
		rs[c] = r(1 / float32(math.Sqrt(float64(x))))
	}
	transposed := isConv && n.BoolArg("transposed", false)
	fw := make([]float32, len(w))
	fb := make([]float32, ch)
	shape := wv.Meta.Sizes
	if len(shape) < 2 || len(w) == 0 {
		return fmt.Errorf("weight %s has shape %v", wv.Name, wv.Meta)
	}
	// The loops below walk the weight by its declared shape: that shape must be its data's,
	// or a corrupt archive declaring a dim of 2^40 spins for hours (or divides by zero).
	d0, d1 := int(shape[0].Size), int(shape[1].Size)
	if d0 <= 0 || d1 <= 0 || d1 > len(w)/d0 || len(w)%(d0*d1) != 0 {
		return fmt.Errorf("weight %s has shape %v but %d elements", wv.Name, wv.Meta, len(w))
	}
	inner := len(w) / (d0 * d1)
	if isConv {
		// fused_w = w * (gamma * rsqrt).reshape([-1, 1, ...]) (or [1, -1, ...] transposed)
		// fused_b = (b - mean) * rsqrt * gamma + beta
		scale := make([]float32, ch)
		for c := range scale {
			scale[c] = r(gamma[c] * rs[c])
		}
		for i := 0; i < d0; i++ {
			for j := 0; j < d1; j++ {
				c := i
				if transposed {
					c = j
				}
				if c >= ch {
					return fmt.Errorf("weight %s has %d output channels, batch norm %d", wv.Name, c+1, ch)
				}
				for k := 0; k < inner; k++ {
					at := (i*d1+j)*inner + k
					fw[at] = r(w[at] * scale[c])
				}
			}
		}
		for c := range fb {
			t := r(b[c] - mean[c])
			t = r(t * rs[c])
			t = r(t * gamma[c])
			fb[c] = r(t + beta[c])
		}
	} else {
		// scale = gamma * rsqrt; fused_w = w * scale.unsqueeze(-1); fused_b = (b - mean) * scale + beta
		if d0 != ch {
			return fmt.Errorf("linear weight %s has %d rows, batch norm %d channels", wv.Name, d0, ch)
		}
		for c := 0; c < ch; c++ {
			scale := r(gamma[c] * rs[c])
			for k := 0; k < d1*inner; k++ {
				fw[c*d1*inner+k] = r(w[c*d1*inner+k] * scale)
			}
			t := r(b[c] - mean[c])
			t = r(t * scale)
			fb[c] = r(t + beta[c])
		}
	}
	meta := ir.TensorMeta{DType: dt, Sizes: wv.Meta.Sizes}
	newW := ps.Add(wv.Name+"_fused_bn", meta, DTypeBytes(dt, fw))
	biasName := wv.Name + "_bias_fused_bn"
	if bv != nil {
		biasName = bv.Name + "_fused_bn"
	}
	newB := ps.Add(biasName, ir.TensorMeta{DType: bdt, Sizes: []ir.Dim{{Size: int64(ch)}}}, DTypeBytes(bdt, fb))
	n.SetTensorArg("weight", newW)
	n.SetTensorArg("bias", newB)
	g.ReplaceAllUses(bn.Outputs[0], n.FirstOutput())
	g.RemoveNodes(map[*ir.Node]bool{bn: true})
	ps.DropUnused()
	return nil
}

// DecomposeBatchNorm turns each batch norm left after fusion into a 1×1 depthwise convolution
// (DecomposeBatchNorm) with weight gamma/sqrt(var+eps) and bias -mean·gamma/sqrt(var+eps) + beta,
// computed in float64 as ExecuTorch does (eps rounded to float32 first) and stored as float32. A
// rank-2 input [N, C] is convolved as [N, C, 1]; a rank-3 one is a 1-d convolution, which
// Conv1dUnsqueeze then runs as a 2-d one. A batch norm it cannot decompose is left for the
// backend to refuse, as ExecuTorch's is.
type DecomposeBatchNorm struct{}

func (DecomposeBatchNorm) Name() string { return "DecomposeBatchNorm" }

func (DecomposeBatchNorm) Run(g *ir.Graph) (_ string, err error) {
	defer recovered(&err)
	ps := ParamsOf(g)
	// One users map serves the whole walk: a decomposition changes who reads its batch norm's
	// input, never whether another batch norm's statistics are read.
	users := g.Users()
	decomposed := 0
	for i := 0; i < len(g.Nodes); i++ {
		bn := g.Nodes[i]
		if bn.Target != targetBatchNorm || bn.FirstOutput() == nil || DecomposeBatchNormDecline(bn, graphFacts{g, ps, users}) != nil {
			continue
		}
		in, out := bn.TensorArg("input"), bn.FirstOutput()
		var stats [4][]float32 // weight, bias, mean, var
		for k, name := range []string{"weight", "bias", "running_mean", "running_var"} {
			var err error
			if stats[k], err = ps.Float32s(bn.TensorArg(name)); err != nil {
				return "", err
			}
		}
		gamma, beta, mean, variance := stats[0], stats[1], stats[2], stats[3]
		ch := int(in.Meta.Sizes[1].Size)
		if len(mean) != ch || len(variance) != ch || (gamma != nil && len(gamma) != ch) || (beta != nil && len(beta) != ch) {
			return "", fmt.Errorf("node %s: batch-norm statistics disagree with the %d channels", bn.Name, ch)
		}
		eps := float64(float32(bn.ScalarArg("eps", 1e-5)))
		// computed in float64 and stored in the statistics' dtype (.to(running_mean.dtype)):
		// float16 and bfloat16 rounded from the float64 directly
		dt := ir.Float32
		if mv := bn.TensorArg("running_mean"); mv != nil && mv.Meta != nil {
			dt = mv.Meta.DType
		}
		r, err := roundTo(dt)
		if err != nil {
			return "", fmt.Errorf("node %s: %w", bn.Name, err)
		}
		w, b := make([]float32, ch), make([]float32, ch)
		for c := range ch {
			g, be := 1.0, 0.0
			if gamma != nil {
				g = float64(gamma[c])
			}
			if beta != nil {
				be = float64(beta[c])
			}
			denom := math.Sqrt(float64(variance[c]) + eps)
			w[c] = round64(g/denom, dt, r)
			b[c] = round64(-float64(mean[c])*g/denom+be, dt, r)
		}
		spatial := max(in.Rank()-2, 1)
		ones, zeros := make([]int64, spatial), make([]int64, spatial)
		wSizes := []ir.Dim{{Size: int64(ch)}, {Size: 1}}
		for k := range ones {
			ones[k] = 1
			wSizes = append(wSizes, ir.Dim{Size: 1})
		}
		name := bn.Name
		if gv := bn.TensorArg("weight"); gv != nil {
			name = gv.Name
		}
		wv := ps.Add(name+"_decomposed_bn_weight", ir.TensorMeta{DType: dt, Sizes: wSizes}, DTypeBytes(dt, w))
		bv := ps.Add(name+"_decomposed_bn_bias", ir.TensorMeta{DType: dt, Sizes: []ir.Dim{{Size: int64(ch)}}}, DTypeBytes(dt, b))
		conv := &ir.Node{Name: bn.Name + "_conv", Target: targetConv, Args: []ir.Arg{
			{Name: "input", Kind: ir.ArgTensor, Values: []*ir.Value{in}},
			{Name: "weight", Kind: ir.ArgTensor, Values: []*ir.Value{wv}},
			{Name: "bias", Kind: ir.ArgTensor, Values: []*ir.Value{bv}},
			{Name: "stride", Kind: ir.ArgInts, Ints: ones},
			{Name: "padding", Kind: ir.ArgInts, Ints: zeros},
			{Name: "dilation", Kind: ir.ArgInts, Ints: slices.Clone(ones)},
			{Name: "transposed", Kind: ir.ArgBool, Bool: false},
			{Name: "output_padding", Kind: ir.ArgInts, Ints: slices.Clone(zeros)},
			{Name: "groups", Kind: ir.ArgInt, Int: int64(ch)},
		}, Outputs: []*ir.Value{out}}
		out.Producer = conv
		conv.DebugHandle = bn.DebugHandle
		g.Nodes[i] = conv
		if in.Rank() == 2 { // [N, C] as [N, C, 1]
			i = withUnitDim(g, i, conv, "input", 2, bn.Name, "_ncl")
		}
		decomposed++
	}
	return summary(passes.Changes(decomposed, "decomposed %d batch norm(s) into 1×1 depthwise convolutions"),
		passes.Changes(ps.DropUnused(), "dropped %d unused parameter(s)")), nil
}

// round64 rounds a float64 to dt once: float32 directly, float16 and bfloat16 through odd32.
func round64(x float64, dt ir.DType, r func(float32) float32) float32 {
	if dt == ir.Float32 {
		return float32(x)
	}
	return r(odd32(x))
}

func filled(n int, v float32) []float32 {
	f := make([]float32, n)
	for i := range f {
		f[i] = v
	}
	return f
}
