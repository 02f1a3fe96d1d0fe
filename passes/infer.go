package passes

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// Meta inference: the dtype and sizes of what a core ATen operator returns, as torch's meta
// functions compute them, for the nodes a decomposition inserts (torch records them while
// tracing; etgo computes them). An operator without a rule here cannot be emitted by a
// decomposition: Builder.Call says which.
//
// Rules take the node with its schema-named arguments and return one meta per output.

type inferFn func(n *ir.Node) ([]*ir.TensorMeta, error)

var inferRules = map[string]inferFn{}

func registerInfer(fn inferFn, targets ...string) {
	for _, t := range targets {
		if _, dup := inferRules[t]; dup {
			panic("passes: two meta rules for " + t)
		}
		inferRules[t] = fn
	}
}

// InferMeta computes the outputs of n from its arguments.
func InferMeta(n *ir.Node) ([]*ir.TensorMeta, error) {
	fn, ok := inferRules[n.Target]
	if !ok {
		return nil, fmt.Errorf("etgo cannot infer the result of %s", n.Target)
	}
	return fn(n)
}

func metaOf(dtype ir.DType, sizes []ir.Dim) *ir.TensorMeta {
	return &ir.TensorMeta{DType: dtype, Sizes: sizes}
}

func one(m *ir.TensorMeta) []*ir.TensorMeta { return []*ir.TensorMeta{m} }

// argMeta is the meta of the tensor argument name.
func argMeta(n *ir.Node, name string) (*ir.TensorMeta, error) {
	v := n.TensorArg(name)
	if v == nil || v.Meta == nil {
		return nil, fmt.Errorf("%s: argument %s is not a tensor", n.Target, name)
	}
	return v.Meta, nil
}

// operand describes argument name (a tensor or a number) for result-type computation.
func operand(n *ir.Node, name string) (ir.Operand, bool) {
	a := n.Arg(name)
	if a == nil {
		return ir.Operand{}, false
	}
	switch a.Kind {
	case ir.ArgTensor:
		if len(a.Values) == 1 && a.Values[0] != nil && a.Values[0].Meta != nil {
			return ir.TensorOperand(a.Values[0].Meta), true
		}
	case ir.ArgInt, ir.ArgFloat, ir.ArgBool:
		return ir.ScalarOperand(a.Kind), true
	case ir.ArgSymInt:
		if len(a.Values) == 1 && a.Values[0] != nil {
			switch a.Values[0].Kind {
			case ir.SymFloatValue:
				return ir.ScalarOperand(ir.ArgFloat), true
			case ir.SymBoolValue:
				return ir.ScalarOperand(ir.ArgBool), true
			}
		}
		return ir.ScalarOperand(ir.ArgInt), true
	}
	return ir.Operand{}, false
}

// broadcast is torch's broadcasting of shapes (right-aligned; a 1 stretches).
func broadcast(shapes ...[]ir.Dim) ([]ir.Dim, error) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make([]ir.Dim, rank)
	for i := range out {
		out[i] = ir.Dim{Size: 1}
	}
	for _, s := range shapes {
		off := rank - len(s)
		for i, d := range s {
			cur := out[off+i]
			switch {
			case d.IsStatic() && d.Size == 1:
			case cur.IsStatic() && cur.Size == 1:
				out[off+i] = d
			case d == cur:
			case !d.IsStatic() || !cur.IsStatic():
				// Symbolic against another size: torch guards them equal; keep the symbol.
				if cur.IsStatic() {
					out[off+i] = d
				}
			default:
				return nil, fmt.Errorf("shapes %v do not broadcast", shapes)
			}
		}
	}
	return out, nil
}

// elementwise infers an n-ary elementwise operator over the named operands: broadcast sizes,
// the promoted dtype mapped by result (nil: the promoted dtype itself).
func elementwise(names []string, result func(ir.DType) ir.DType) inferFn {
	return func(n *ir.Node) ([]*ir.TensorMeta, error) {
		var shapes [][]ir.Dim
		var ops []ir.Operand
		for _, name := range names {
			op, ok := operand(n, name)
			if !ok {
				continue
			}
			ops = append(ops, op)
			if v := n.TensorArg(name); v != nil {
				shapes = append(shapes, v.Meta.Sizes)
			}
		}
		if len(shapes) == 0 {
			return nil, fmt.Errorf("%s: no tensor operand", n.Target)
		}
		sizes, err := broadcast(shapes...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n.Target, err)
		}
		dt := ir.ResultType(ops...)
		if result != nil {
			dt = result(dt)
		}
		if d := n.Arg("dtype"); d != nil && d.Kind == ir.ArgScalarType {
			dt = ir.DType(d.Int)
		}
		return one(metaOf(dt, sizes)), nil
	}
}

// toFloat is the result type of an operator that computes in floating point: integers and bool
// become the default float; float and complex types stay.
func toFloat(d ir.DType) ir.DType {
	if d.IsFloat() || d.IsComplex() {
		return d
	}
	return ir.Float32
}

func toBool(ir.DType) ir.DType { return ir.Bool }

// sameAs returns the named tensor's meta (dtype from a dtype argument when given).
func sameAs(name string) inferFn {
	return func(n *ir.Node) ([]*ir.TensorMeta, error) {
		m, err := argMeta(n, name)
		if err != nil {
			return nil, err
		}
		dt := m.DType
		if d := n.Arg("dtype"); d != nil && d.Kind == ir.ArgScalarType {
			dt = ir.DType(d.Int)
		}
		return one(metaOf(dt, slices.Clone(m.Sizes))), nil
	}
}

func init() {
	// Unary operators whose result has the input's type.
	registerInfer(sameAs("self"),
		"aten.abs.default", "aten.neg.default", "aten.relu.default", "aten.ceil.default", "aten.floor.default",
		"aten.round.default", "aten.round.decimals", "aten.trunc.default", "aten.sign.default", "aten.bitwise_not.default",
		"aten.clone.default", "aten.contiguous.default", "aten.alias.default", "aten.alias_copy.default", "aten.hardtanh.default", "aten.leaky_relu.default",
		"aten.elu.default", "aten.gelu.default", "aten.fill.Scalar", "aten.fill.Tensor", "aten._softmax.default", "aten._log_softmax.default",
		"aten.cumsum.default", "aten.cumprod.default", "aten.flip.default", "aten.roll.default", "aten.detach.default",
		"aten.lift_fresh_copy.default", "aten.hardsigmoid.default", "aten.hardswish.default", "aten.silu.default",
		"aten.prelu.default", "aten.tril.default", "aten.triu.default", "aten.sgn.default",
		"aten.full_like.default", "aten.empty_like.default", "aten.zeros_like.default", "aten.ones_like.default",
		"aten.rand_like.default", "aten.randn_like.default", "aten.copy.default", "aten.masked_fill.Scalar",
		"aten.masked_fill.Tensor", "aten.scatter.src", "aten.scatter.value", "aten.scatter_add.default",
		"aten.scatter_reduce.two", "aten.index_put.default", "aten.slice_scatter.default", "aten.select_scatter.default",
		"aten.diagonal_scatter.default", "aten.index_add.default", "aten.index_copy.default", "aten.index_fill.int_Scalar",
		"aten.index_fill.int_Tensor", "aten.logit.default", "aten.nan_to_num.default",
		"dim_order_ops._clone_dim_order.default", "aten.bernoulli.p", "aten.celu.default", "aten.selu.default",
		"aten.softplus.default", "aten.mish.default", "aten.glu.default", "aten.hardshrink.default", "aten.softshrink.default",
		"aten.threshold.default", "aten.rrelu.default", "aten.relu6.default", "aten.log_sigmoid.default", "aten.lerp.Scalar")
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) { // clamp: self with its bounds' categories
		m, err := argMeta(n, "self")
		if err != nil {
			return nil, err
		}
		ops := []ir.Operand{ir.TensorOperand(m)}
		for _, b := range []string{"min", "max"} {
			if op, ok := operand(n, b); ok {
				ops = append(ops, op)
			}
		}
		return one(metaOf(ir.ResultType(ops...), slices.Clone(m.Sizes))), nil
	}, "aten.clamp.default", "aten.clamp_min.default", "aten.clamp_max.default")
	// Unary operators that compute in floating point (integers become the default float).
	registerInfer(elementwise([]string{"self"}, toFloat),
		"aten.sigmoid.default", "aten.exp.default", "aten.exp2.default", "aten.expm1.default", "aten.log.default",
		"aten.log1p.default", "aten.log2.default", "aten.log10.default", "aten.sqrt.default", "aten.rsqrt.default",
		"aten.reciprocal.default", "aten.sin.default", "aten.cos.default", "aten.tan.default", "aten.tanh.default",
		"aten.asin.default", "aten.acos.default", "aten.atan.default", "aten.sinh.default", "aten.cosh.default",
		"aten.asinh.default", "aten.acosh.default", "aten.atanh.default", "aten.erf.default", "aten.erfc.default",
		"aten.erfinv.default", "aten.lgamma.default", "aten.digamma.default", "aten.i0.default", "aten.sinc.default",
		"aten.special_erfcx.default", "aten.angle.default")
	registerInfer(elementwise([]string{"self"}, toBool),
		"aten.isnan.default", "aten.isinf.default", "aten.isfinite.default", "aten.signbit.default",
		"aten.logical_not.default", "aten.isposinf.default", "aten.isneginf.default")
	// Binary operators (tensor or scalar other).
	registerInfer(elementwise([]string{"self", "other"}, nil),
		"aten.add.Tensor", "aten.add.Scalar", "aten.sub.Tensor", "aten.sub.Scalar", "aten.mul.Tensor", "aten.mul.Scalar",
		"aten.rsub.Scalar", "aten.rsub.Tensor", "aten.remainder.Tensor", "aten.remainder.Scalar", "aten.fmod.Tensor",
		"aten.fmod.Scalar", "aten.maximum.default", "aten.minimum.default", "aten.fmax.default", "aten.fmin.default",
		"aten.bitwise_and.Tensor", "aten.bitwise_and.Scalar", "aten.bitwise_or.Tensor", "aten.bitwise_or.Scalar",
		"aten.bitwise_xor.Tensor", "aten.bitwise_xor.Scalar", "aten.floor_divide.default", "aten.floor_divide.Scalar",
		"aten.div.Tensor_mode", "aten.div.Scalar_mode", "aten.bitwise_left_shift.Tensor", "aten.bitwise_right_shift.Tensor",
		"aten.__lshift__.Scalar", "aten.__rshift__.Scalar", "aten.copysign.Tensor", "aten.nextafter.default",
		"aten.heaviside.default", "aten.hypot.default", "aten.xlogy.Tensor", "aten.gcd.default", "aten.lcm.default")
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) {
		// div with a rounding mode keeps integers; without one it is true division.
		if m := n.Arg("rounding_mode"); m != nil && m.Kind == ir.ArgString {
			return elementwise([]string{"self", "other"}, nil)(n)
		}
		return elementwise([]string{"self", "other"}, toFloat)(n)
	}, "aten.div.Tensor", "aten.div.Scalar")
	registerInfer(elementwise([]string{"self", "other"}, toFloat), "aten.atan2.default", "aten.true_divide.Tensor")
	registerInfer(elementwise([]string{"self", "exponent"}, nil), "aten.pow.Tensor_Tensor", "aten.pow.Tensor_Scalar")
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) { // pow(Scalar self, Tensor exponent)
		return elementwise([]string{"self", "exponent"}, nil)(n)
	}, "aten.pow.Scalar")
	registerInfer(elementwise([]string{"self", "other"}, toBool),
		"aten.eq.Tensor", "aten.eq.Scalar", "aten.ne.Tensor", "aten.ne.Scalar", "aten.lt.Tensor", "aten.lt.Scalar",
		"aten.le.Tensor", "aten.le.Scalar", "aten.gt.Tensor", "aten.gt.Scalar", "aten.ge.Tensor", "aten.ge.Scalar",
		"aten.logical_and.default", "aten.logical_or.default", "aten.logical_xor.default")
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) { // where: the condition's shape counts too
		out, err := elementwise([]string{"self", "other"}, nil)(n)
		if err != nil {
			return nil, err
		}
		c, err := argMeta(n, "condition")
		if err != nil {
			return nil, err
		}
		sizes, err := broadcast(c.Sizes, out[0].Sizes)
		out[0].Sizes = sizes
		return out, err
	}, "aten.where.self", "aten.where.ScalarSelf", "aten.where.ScalarOther", "aten.where.Scalar")
	registerInfer(elementwise([]string{"self", "tensor1", "tensor2"}, nil), "aten.addcmul.default")
	registerInfer(elementwise([]string{"self", "tensor1", "tensor2"}, toFloat), "aten.addcdiv.default")
	registerInfer(elementwise([]string{"self", "end", "weight"}, nil), "aten.lerp.Tensor")

	registerInfer(inferTo, "aten._to_copy.default", "dim_order_ops._to_dim_order_copy.default")
	registerInfer(inferFull, "aten.full.default")
	registerInfer(inferScalarTensor, "aten.scalar_tensor.default")
	registerInfer(inferArange, "aten.arange.start_step", "aten.arange.default", "aten.arange.start")
	registerInfer(inferEmpty, "aten.empty.memory_format", "aten.zeros.default", "aten.ones.default",
		"aten.rand.default", "aten.randn.default")
	registerInfer(inferEmptyStrided, "aten.empty_strided.default")
	registerInfer(inferReduce(nil), "aten.sum.dim_IntList", "aten.amax.default", "aten.amin.default",
		"aten.prod.dim_int", "aten.logsumexp.default", "aten.nansum.default")
	registerInfer(inferReduce(toFloat), "aten.mean.dim", "aten.var.correction", "aten.std.correction",
		"aten.var.dim", "aten.std.dim", "aten.linalg_vector_norm.default")
	registerInfer(inferReduce(toBool), "aten.any.dim", "aten.any.dims", "aten.all.dim", "aten.all.dims")
	registerInfer(inferReduceAll(nil), "aten.sum.default", "aten.prod.default", "aten.max.default", "aten.min.default")
	registerInfer(inferReduceAll(toFloat), "aten.mean.default")
	registerInfer(inferReduceAll(toBool), "aten.any.default", "aten.all.default")
	registerInfer(inferArgReduce, "aten.argmax.default", "aten.argmin.default")
	registerInfer(inferMaxDim, "aten.max.dim", "aten.min.dim", "aten.median.dim", "aten.mode.default", "aten.kthvalue.default")
	registerInfer(inferVarMean, "aten.var_mean.correction")

	registerInfer(inferView, "aten.view.default", "aten.view_copy.default", "aten._unsafe_view.default", "aten.reshape.default")
	registerInfer(inferPermute, "aten.permute.default", "aten.permute_copy.default")
	registerInfer(inferExpand, "aten.expand.default", "aten.expand_copy.default")
	registerInfer(inferUnsqueeze, "aten.unsqueeze.default", "aten.unsqueeze_copy.default")
	registerInfer(inferSqueeze, "aten.squeeze.dims", "aten.squeeze_copy.dims", "aten.squeeze.dim", "aten.squeeze_copy.dim",
		"aten.squeeze.default", "aten.squeeze_copy.default")
	registerInfer(inferSlice, "aten.slice.Tensor", "aten.slice_copy.Tensor")
	registerInfer(inferSelect, "aten.select.int", "aten.select_copy.int")
	registerInfer(inferCat, "aten.cat.default")
	registerInfer(inferStack, "aten.stack.default")
	registerInfer(inferSplit, "aten.split_with_sizes.default", "aten.split_with_sizes_copy.default", "aten.split.Tensor",
		"aten.split_copy.Tensor")
	registerInfer(inferUnbind, "aten.unbind.int", "aten.unbind_copy.int")
	registerInfer(inferRepeat, "aten.repeat.default")
	registerInfer(inferPadding("pad"), "aten.constant_pad_nd.default")
	registerInfer(inferPadding("padding"), "aten.reflection_pad1d.default", "aten.reflection_pad2d.default", "aten.reflection_pad3d.default",
		"aten.replication_pad1d.default", "aten.replication_pad2d.default", "aten.replication_pad3d.default")
	registerInfer(inferIndex, "aten.index.Tensor", "aten._unsafe_index.Tensor")
	registerInfer(inferIndexSelect, "aten.index_select.default")
	registerInfer(inferGather, "aten.gather.default")
	registerInfer(inferMM, "aten.mm.default", "aten.bmm.default", "aten.addmm.default", "aten.baddbmm.default")
	registerInfer(inferConvolution, "aten.convolution.default")
	registerInfer(inferLayerNorm, "aten.native_layer_norm.default")
	registerInfer(inferGroupNorm, "aten.native_group_norm.default")
	registerInfer(inferBatchNormNoTraining, "aten._native_batch_norm_legit_no_training.default")
	registerInfer(inferPool(true), "aten.max_pool2d_with_indices.default", "aten.max_pool3d_with_indices.default")
	registerInfer(inferPool(false), "aten.avg_pool2d.default", "aten.avg_pool3d.default", "aten.avg_pool1d.default",
		"aten.max_pool2d.default", "aten.max_pool1d.default")
	registerInfer(inferAdaptivePool, "aten._adaptive_avg_pool2d.default", "aten._adaptive_avg_pool3d.default",
		"aten.adaptive_avg_pool1d.default")
	registerInfer(inferUpsample, "aten.upsample_nearest2d.vec", "aten.upsample_bilinear2d.vec", "aten.upsample_nearest1d.vec",
		"aten.upsample_linear1d.vec", "aten.upsample_bicubic2d.vec", "aten.upsample_trilinear3d.vec", "aten.upsample_nearest3d.vec",
		"aten._upsample_bilinear2d_aa.vec", "aten._upsample_nearest_exact2d.vec")
	registerInfer(inferEmbedding, "aten.embedding.default")
	registerInfer(inferSymSize, "aten.sym_size.int", "aten.sym_numel.default", "aten.sym_storage_offset.default")
	registerInfer(inferTopk, "aten.topk.default", "aten.sort.default", "aten.sort.stable")
	registerInfer(inferAsStrided, "aten.as_strided.default", "aten.as_strided_copy.default")
}

func scalarTypeArg(n *ir.Node, name string) (ir.DType, bool) {
	if a := n.Arg(name); a != nil && a.Kind == ir.ArgScalarType {
		return ir.DType(a.Int), true
	}
	return 0, false
}

func inferTo(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	dt := m.DType
	if d, ok := scalarTypeArg(n, "dtype"); ok {
		dt = d
	}
	return one(metaOf(dt, slices.Clone(m.Sizes))), nil
}

// sizesArg reads an int-list argument as dims (symbolic entries take their value's symbol).
func sizesArg(n *ir.Node, name string) ([]ir.Dim, error) {
	a := n.Arg(name)
	if a == nil || (a.Kind != ir.ArgInts && a.Kind != ir.ArgSymInts && a.Kind != ir.ArgInt) {
		return nil, fmt.Errorf("%s: argument %s is not a list of sizes", n.Target, name)
	}
	if a.Kind == ir.ArgInt {
		return []ir.Dim{{Size: a.Int}}, nil
	}
	out := make([]ir.Dim, len(a.Ints))
	for i, x := range a.Ints {
		out[i] = ir.Dim{Size: x}
		if i < len(a.Values) && a.Values[i] != nil {
			out[i] = symDim(a.Values[i])
		}
	}
	return out, nil
}

// symDim is the dim a symbolic int value stands for: the symbol of the sym_size it reads, or
// the value's own name.
func symDim(v *ir.Value) ir.Dim {
	if v.Sym != (ir.Dim{}) {
		return v.Sym
	}
	if p := v.Producer; p != nil && p.Target == "aten.sym_size.int" {
		if in := p.TensorArg("self"); in != nil && in.Meta != nil {
			d := int(p.IntArg("dim", 0))
			if d < 0 {
				d += len(in.Meta.Sizes)
			}
			if d >= 0 && d < len(in.Meta.Sizes) {
				return in.Meta.Sizes[d]
			}
		}
	}
	return ir.Dim{Symbol: v.Name}
}

func inferFull(n *ir.Node) ([]*ir.TensorMeta, error) {
	sizes, err := sizesArg(n, "size")
	if err != nil {
		return nil, err
	}
	dt, ok := scalarTypeArg(n, "dtype")
	if !ok {
		fill, _ := operand(n, "fill_value")
		dt = fill.DType
	}
	return one(metaOf(dt, sizes)), nil
}

func inferScalarTensor(n *ir.Node) ([]*ir.TensorMeta, error) {
	dt, ok := scalarTypeArg(n, "dtype")
	if !ok {
		dt = ir.Float32 // scalar_tensor's default is the default dtype, whatever s is
	}
	return one(metaOf(dt, nil)), nil
}

func inferEmpty(n *ir.Node) ([]*ir.TensorMeta, error) {
	sizes, err := sizesArg(n, "size")
	if err != nil {
		return nil, err
	}
	dt, ok := scalarTypeArg(n, "dtype")
	if !ok {
		dt = ir.Float32
	}
	return one(metaOf(dt, sizes)), nil
}

func inferEmptyStrided(n *ir.Node) ([]*ir.TensorMeta, error) {
	return inferEmpty(n)
}

// inferArange: the length is ceil((end - start) / step); the dtype is int64 when start, end and
// step are all ints, else the default float.
func inferArange(n *ir.Node) ([]*ir.TensorMeta, error) {
	num := func(name string, def float64) (float64, bool, bool) {
		a := n.Arg(name)
		if a == nil || a.Kind == ir.ArgNone {
			return def, true, true
		}
		switch a.Kind {
		case ir.ArgInt:
			return float64(a.Int), true, true
		case ir.ArgFloat:
			return a.Float, false, true
		}
		return 0, true, false
	}
	start, si, ok1 := num("start", 0)
	end, ei, ok2 := num("end", 0)
	step, pi, ok3 := num("step", 1)
	dt, has := scalarTypeArg(n, "dtype")
	if !has {
		dt = ir.Float32
		if si && ei && pi {
			dt = ir.Int64
		}
	}
	if !ok1 || !ok2 || !ok3 {
		if a := n.Arg("end"); a != nil && a.Kind == ir.ArgSymInt && (n.Arg("start") == nil || n.Arg("start").Kind == ir.ArgInt) {
			return one(metaOf(dt, []ir.Dim{symDim(a.Values[0])})), nil
		}
		return nil, fmt.Errorf("%s with symbolic bounds", n.Target)
	}
	if step == 0 {
		return nil, fmt.Errorf("arange with step 0")
	}
	length := int64(0)
	if q := (end - start) / step; q > 0 {
		length = int64(q)
		if float64(length) < q {
			length++
		}
	}
	return one(metaOf(dt, []ir.Dim{{Size: length}})), nil
}

// normDim wraps a possibly negative dim into [0, rank) (a 0-d tensor takes dims 0 and -1).
func normDim(d int64, rank int) (int, error) {
	r := int64(max(rank, 1))
	if d < -r || d >= r {
		return 0, fmt.Errorf("dim %d out of range for rank %d", d, rank)
	}
	if d < 0 {
		d += r
	}
	return int(d), nil
}

// reduceDims is the set of dims a reduction's dim argument names (all when None or empty).
func reduceDims(n *ir.Node, rank int) (map[int]bool, error) {
	dims := map[int]bool{}
	a := n.Arg("dim")
	var list []int64
	if a != nil {
		switch a.Kind {
		case ir.ArgInt:
			list = []int64{a.Int}
		case ir.ArgInts:
			list = a.Ints
		}
	}
	if len(list) == 0 {
		for i := 0; i < rank; i++ {
			dims[i] = true
		}
		return dims, nil
	}
	for _, d := range list {
		k, err := normDim(d, rank)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n.Target, err)
		}
		dims[k] = true
	}
	return dims, nil
}

func reducedSizes(in []ir.Dim, dims map[int]bool, keep bool) []ir.Dim {
	var out []ir.Dim
	for i, d := range in {
		switch {
		case !dims[i]:
			out = append(out, d)
		case keep:
			out = append(out, ir.Dim{Size: 1})
		}
	}
	return out
}

// reduceType is a reduction's result type: dtype when given, else the input's (integers and
// bool summed or multiplied become int64), mapped by result.
func reduceType(n *ir.Node, in ir.DType, result func(ir.DType) ir.DType) ir.DType {
	if d, ok := scalarTypeArg(n, "dtype"); ok {
		return d
	}
	switch n.Target {
	case "aten.sum.dim_IntList", "aten.sum.default", "aten.prod.dim_int", "aten.prod.default", "aten.nansum.default":
		if !in.IsFloat() && !in.IsComplex() {
			return ir.Int64
		}
	}
	if result != nil {
		return result(in)
	}
	return in
}

func inferReduce(result func(ir.DType) ir.DType) inferFn {
	return func(n *ir.Node) ([]*ir.TensorMeta, error) {
		m, err := argMeta(n, "self")
		if err != nil {
			return nil, err
		}
		dims, err := reduceDims(n, len(m.Sizes))
		if err != nil {
			return nil, err
		}
		out := metaOf(reduceType(n, m.DType, result), reducedSizes(m.Sizes, dims, n.BoolArg("keepdim", false)))
		if n.Target == "aten.any.dim" || n.Target == "aten.all.dim" || n.Target == "aten.any.dims" || n.Target == "aten.all.dims" {
			if m.DType == ir.Uint8 {
				out.DType = ir.Uint8
			}
		}
		return one(out), nil
	}
}

func inferReduceAll(result func(ir.DType) ir.DType) inferFn {
	return func(n *ir.Node) ([]*ir.TensorMeta, error) {
		m, err := argMeta(n, "self")
		if err != nil {
			return nil, err
		}
		return one(metaOf(reduceType(n, m.DType, result), nil)), nil
	}
}

func inferArgReduce(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	a := n.Arg("dim")
	if a == nil || a.Kind == ir.ArgNone {
		var sizes []ir.Dim
		if n.BoolArg("keepdim", false) {
			sizes = make([]ir.Dim, len(m.Sizes))
			for i := range sizes {
				sizes[i] = ir.Dim{Size: 1}
			}
		}
		return one(metaOf(ir.Int64, sizes)), nil
	}
	dims, err := reduceDims(n, len(m.Sizes))
	if err != nil {
		return nil, err
	}
	return one(metaOf(ir.Int64, reducedSizes(m.Sizes, dims, n.BoolArg("keepdim", false)))), nil
}

func inferMaxDim(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	dims, err := reduceDims(n, len(m.Sizes))
	if err != nil {
		return nil, err
	}
	sizes := reducedSizes(m.Sizes, dims, n.BoolArg("keepdim", false))
	return []*ir.TensorMeta{metaOf(m.DType, sizes), metaOf(ir.Int64, slices.Clone(sizes))}, nil
}

func inferVarMean(n *ir.Node) ([]*ir.TensorMeta, error) {
	out, err := inferReduce(toFloat)(n)
	if err != nil {
		return nil, err
	}
	return []*ir.TensorMeta{out[0], metaOf(out[0].DType, slices.Clone(out[0].Sizes))}, nil
}

func numel(sizes []ir.Dim) (int64, bool) {
	k := int64(1)
	for _, d := range sizes {
		if !d.IsStatic() {
			return 0, false
		}
		k *= d.Size
	}
	return k, true
}

func inferView(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	name := "size"
	if n.Arg("shape") != nil {
		name = "shape"
	}
	sizes, err := sizesArg(n, name)
	if err != nil {
		return nil, err
	}
	infer := -1
	known := int64(1)
	for i, d := range sizes {
		switch {
		case d.IsStatic() && d.Size == -1:
			if infer >= 0 {
				return nil, fmt.Errorf("%s: two -1 sizes", n.Target)
			}
			infer = i
		case d.IsStatic():
			known *= d.Size
		default:
			known = -1 << 62
		}
	}
	if infer >= 0 {
		total, ok := numel(m.Sizes)
		if !ok || known <= 0 {
			if known == 0 {
				return nil, fmt.Errorf("%s: -1 with a zero size", n.Target)
			}
			return nil, fmt.Errorf("%s: -1 with symbolic sizes", n.Target)
		}
		sizes[infer] = ir.Dim{Size: total / known}
	}
	return one(metaOf(m.DType, sizes)), nil
}

func inferPermute(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	perm := n.IntsArg("dims", nil)
	if len(perm) != len(m.Sizes) {
		return nil, fmt.Errorf("%s: %d dims for rank %d", n.Target, len(perm), len(m.Sizes))
	}
	out := make([]ir.Dim, len(perm))
	for i, p := range perm {
		k, err := normDim(p, len(m.Sizes))
		if err != nil {
			return nil, err
		}
		out[i] = m.Sizes[k]
	}
	return one(metaOf(m.DType, out)), nil
}

func inferExpand(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	sizes, err := sizesArg(n, "size")
	if err != nil {
		return nil, err
	}
	off := len(sizes) - len(m.Sizes)
	if off < 0 {
		return nil, fmt.Errorf("%s: fewer sizes than dims", n.Target)
	}
	for i := range sizes {
		if sizes[i].IsStatic() && sizes[i].Size == -1 {
			if i < off {
				return nil, fmt.Errorf("%s: -1 for a new dim", n.Target)
			}
			sizes[i] = m.Sizes[i-off]
		}
	}
	return one(metaOf(m.DType, sizes)), nil
}

func inferUnsqueeze(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	d, err := normDim(n.IntArg("dim", 0), len(m.Sizes)+1)
	if err != nil {
		return nil, err
	}
	return one(metaOf(m.DType, slices.Insert(slices.Clone(m.Sizes), d, ir.Dim{Size: 1}))), nil
}

func inferSqueeze(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	var dims map[int]bool
	if a := n.Arg("dim"); a != nil && (a.Kind == ir.ArgInt || a.Kind == ir.ArgInts) {
		if dims, err = reduceDims(n, len(m.Sizes)); err != nil {
			return nil, err
		}
	}
	var out []ir.Dim
	for i, d := range m.Sizes {
		if (dims == nil || dims[i]) && d.IsStatic() && d.Size == 1 {
			continue
		}
		out = append(out, d)
	}
	return one(metaOf(m.DType, out)), nil
}

func clampIndex(x, size int64) int64 {
	if x < 0 {
		x += size
	}
	return min(max(x, 0), size)
}

func inferSlice(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	d, err := normDim(n.IntArg("dim", 0), len(m.Sizes))
	if err != nil {
		return nil, err
	}
	out := slices.Clone(m.Sizes)
	dim := m.Sizes[d]
	step := n.IntArg("step", 1)
	startA, endA := n.Arg("start"), n.Arg("end")
	symbolic := func(a *ir.Arg) bool { return a != nil && a.Kind == ir.ArgSymInt }
	if !dim.IsStatic() || symbolic(startA) || symbolic(endA) {
		if (startA == nil || startA.Kind == ir.ArgNone || (startA.Kind == ir.ArgInt && startA.Int == 0)) &&
			(endA == nil || endA.Kind == ir.ArgNone || (endA.Kind == ir.ArgInt && endA.Int >= 1<<62)) && step == 1 {
			return one(metaOf(m.DType, out)), nil
		}
		if symbolic(endA) && (startA == nil || startA.Kind == ir.ArgNone || (startA.Kind == ir.ArgInt && startA.Int == 0)) && step == 1 {
			out[d] = symDim(endA.Values[0])
			return one(metaOf(m.DType, out)), nil
		}
		return nil, fmt.Errorf("%s of a symbolic dim", n.Target)
	}
	start := int64(0)
	if startA != nil && startA.Kind == ir.ArgInt {
		start = startA.Int
	}
	end := dim.Size
	if endA != nil && endA.Kind == ir.ArgInt {
		end = endA.Int
	}
	start, end = clampIndex(start, dim.Size), clampIndex(end, dim.Size)
	length := int64(0)
	if end > start && step > 0 {
		length = (end - start + step - 1) / step
	}
	out[d] = ir.Dim{Size: length}
	return one(metaOf(m.DType, out)), nil
}

func inferSelect(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	d, err := normDim(n.IntArg("dim", 0), len(m.Sizes))
	if err != nil {
		return nil, err
	}
	return one(metaOf(m.DType, slices.Delete(slices.Clone(m.Sizes), d, d+1))), nil
}

func tensorsArg(n *ir.Node, name string) ([]*ir.Value, error) {
	a := n.Arg(name)
	if a == nil || (a.Kind != ir.ArgTensors && a.Kind != ir.ArgTensor) || len(a.Values) == 0 {
		return nil, fmt.Errorf("%s: argument %s is not a list of tensors", n.Target, name)
	}
	for _, v := range a.Values {
		if v == nil || v.Meta == nil {
			return nil, fmt.Errorf("%s: argument %s holds a non-tensor", n.Target, name)
		}
	}
	return a.Values, nil
}

func inferCat(n *ir.Node) ([]*ir.TensorMeta, error) {
	ts, err := tensorsArg(n, "tensors")
	if err != nil {
		return nil, err
	}
	var ref *ir.TensorMeta
	var ops []ir.Operand
	for _, t := range ts {
		ops = append(ops, ir.Operand{DType: t.Meta.DType})
		// 1-d empty tensors are skipped by cat's shape check (legacy behaviour).
		if len(t.Meta.Sizes) == 1 && t.Meta.Sizes[0].IsStatic() && t.Meta.Sizes[0].Size == 0 {
			continue
		}
		if ref == nil {
			ref = t.Meta
		}
	}
	if ref == nil {
		return one(metaOf(ir.ResultType(ops...), slices.Clone(ts[0].Meta.Sizes))), nil
	}
	d, err := normDim(n.IntArg("dim", 0), len(ref.Sizes))
	if err != nil {
		return nil, err
	}
	out := slices.Clone(ref.Sizes)
	total := ir.Dim{}
	for _, t := range ts {
		if len(t.Meta.Sizes) == 1 && t.Meta.Sizes[0].IsStatic() && t.Meta.Sizes[0].Size == 0 && len(ref.Sizes) != 1 {
			continue
		}
		if len(t.Meta.Sizes) != len(ref.Sizes) {
			return nil, fmt.Errorf("%s: tensors of ranks %d and %d", n.Target, len(ref.Sizes), len(t.Meta.Sizes))
		}
		td := t.Meta.Sizes[d]
		if !td.IsStatic() || !total.IsStatic() {
			total = ir.Dim{Symbol: joinSym(total, td)}
		} else {
			total.Size += td.Size
		}
	}
	out[d] = total
	return one(metaOf(ir.ResultType(ops...), out)), nil
}

// joinSym writes the sum of two dims as a sympy-like expression.
func joinSym(a, b ir.Dim) string {
	if a.IsStatic() && a.Size == 0 {
		return b.String()
	}
	return a.String() + " + " + b.String()
}

func inferStack(n *ir.Node) ([]*ir.TensorMeta, error) {
	ts, err := tensorsArg(n, "tensors")
	if err != nil {
		return nil, err
	}
	d, err := normDim(n.IntArg("dim", 0), len(ts[0].Meta.Sizes)+1)
	if err != nil {
		return nil, err
	}
	var ops []ir.Operand
	for _, t := range ts {
		ops = append(ops, ir.Operand{DType: t.Meta.DType})
	}
	out := slices.Insert(slices.Clone(ts[0].Meta.Sizes), d, ir.Dim{Size: int64(len(ts))})
	return one(metaOf(ir.ResultType(ops...), out)), nil
}

func inferSplit(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	d, err := normDim(n.IntArg("dim", 0), len(m.Sizes))
	if err != nil {
		return nil, err
	}
	if !m.Sizes[d].IsStatic() {
		return nil, fmt.Errorf("%s of a symbolic dim", n.Target)
	}
	var parts []int64
	if sizes := n.IntsArg("split_sizes", nil); sizes != nil {
		parts = sizes
	} else {
		k := n.IntArg("split_size", 0)
		if k <= 0 {
			return nil, fmt.Errorf("%s: split size %d", n.Target, k)
		}
		for left := m.Sizes[d].Size; left > 0 || len(parts) == 0; left -= k {
			parts = append(parts, min(k, max(left, 0)))
			if left <= k {
				break
			}
		}
	}
	out := make([]*ir.TensorMeta, len(parts))
	for i, p := range parts {
		s := slices.Clone(m.Sizes)
		s[d] = ir.Dim{Size: p}
		out[i] = metaOf(m.DType, s)
	}
	return out, nil
}

func inferUnbind(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	if len(m.Sizes) == 0 {
		return nil, fmt.Errorf("%s of a 0-d tensor", n.Target)
	}
	d, err := normDim(n.IntArg("dim", 0), len(m.Sizes))
	if err != nil {
		return nil, err
	}
	if !m.Sizes[d].IsStatic() {
		return nil, fmt.Errorf("%s of a symbolic dim", n.Target)
	}
	out := make([]*ir.TensorMeta, m.Sizes[d].Size)
	for i := range out {
		out[i] = metaOf(m.DType, slices.Delete(slices.Clone(m.Sizes), d, d+1))
	}
	return out, nil
}

func inferRepeat(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	reps := n.IntsArg("repeats", nil)
	if len(reps) < len(m.Sizes) {
		return nil, fmt.Errorf("%s: fewer repeats than dims", n.Target)
	}
	out := make([]ir.Dim, len(reps))
	off := len(reps) - len(m.Sizes)
	for i, r := range reps {
		size := int64(1)
		if i >= off {
			d := m.Sizes[i-off]
			if !d.IsStatic() {
				if r != 1 {
					return nil, fmt.Errorf("%s of a symbolic dim", n.Target)
				}
				out[i] = d
				continue
			}
			size = d.Size
		}
		out[i] = ir.Dim{Size: size * r}
	}
	return one(metaOf(m.DType, out)), nil
}

// padded applies a pad list (last dim first, before/after pairs) to sizes.
func padded(sizes []ir.Dim, pad []int64) ([]ir.Dim, error) {
	if len(pad)%2 != 0 || len(pad)/2 > len(sizes) {
		return nil, fmt.Errorf("pad of %d entries for rank %d", len(pad), len(sizes))
	}
	out := slices.Clone(sizes)
	for i := 0; i < len(pad)/2; i++ {
		d := len(sizes) - 1 - i
		if !out[d].IsStatic() {
			return nil, fmt.Errorf("padding a symbolic dim")
		}
		out[d].Size += pad[2*i] + pad[2*i+1]
	}
	return out, nil
}

// inferPadding sizes a padding operator whose pad list is the argument name.
func inferPadding(name string) inferFn {
	return func(n *ir.Node) ([]*ir.TensorMeta, error) {
		m, err := argMeta(n, "self")
		if err != nil {
			return nil, err
		}
		out, err := padded(m.Sizes, n.IntsArg(name, nil))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n.Target, err)
		}
		return one(metaOf(m.DType, out)), nil
	}
}

// inferIndex is advanced indexing: the index tensors broadcast together; their shape replaces
// the indexed dims in place when those are adjacent, else goes first.
func inferIndex(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	a := n.Arg("indices")
	if a == nil || (a.Kind != ir.ArgOptionalTensors && a.Kind != ir.ArgTensors) {
		return nil, fmt.Errorf("%s: no index list", n.Target)
	}
	var idxShapes [][]ir.Dim
	var positions []int
	dim := 0
	for _, v := range a.Values {
		if v == nil {
			dim++
			continue
		}
		if v.Meta.DType == ir.Bool || v.Meta.DType == ir.Uint8 {
			return nil, fmt.Errorf("%s with a boolean mask (data-dependent size)", n.Target)
		}
		idxShapes = append(idxShapes, v.Meta.Sizes)
		positions = append(positions, dim)
		dim++
	}
	if dim > len(m.Sizes) {
		return nil, fmt.Errorf("%s: %d indices for rank %d", n.Target, dim, len(m.Sizes))
	}
	if len(idxShapes) == 0 {
		return one(metaOf(m.DType, slices.Clone(m.Sizes))), nil
	}
	ishape, err := broadcast(idxShapes...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", n.Target, err)
	}
	adjacent := positions[len(positions)-1]-positions[0] == len(positions)-1
	indexed := map[int]bool{}
	for _, p := range positions {
		indexed[p] = true
	}
	var out []ir.Dim
	if !adjacent {
		out = append(out, ishape...)
	}
	for i, d := range m.Sizes {
		if indexed[i] {
			if adjacent && i == positions[0] {
				out = append(out, ishape...)
			}
			continue
		}
		out = append(out, d)
	}
	return one(metaOf(m.DType, out)), nil
}

func inferIndexSelect(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	idx, err := argMeta(n, "index")
	if err != nil {
		return nil, err
	}
	out := slices.Clone(m.Sizes)
	if len(out) == 0 {
		return one(metaOf(m.DType, out)), nil
	}
	d, err := normDim(n.IntArg("dim", 0), len(m.Sizes))
	if err != nil {
		return nil, err
	}
	k := ir.Dim{Size: 1}
	if len(idx.Sizes) > 0 {
		k = idx.Sizes[0]
	}
	out[d] = k
	return one(metaOf(m.DType, out)), nil
}

func inferGather(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	idx, err := argMeta(n, "index")
	if err != nil {
		return nil, err
	}
	return one(metaOf(m.DType, slices.Clone(idx.Sizes))), nil
}

func inferMM(n *ir.Node) ([]*ir.TensorMeta, error) {
	a, b := "self", "mat2"
	if n.Target == "aten.addmm.default" {
		a = "mat1"
	}
	if n.Target == "aten.baddbmm.default" {
		a, b = "batch1", "batch2"
	}
	x, err := argMeta(n, a)
	if err != nil {
		return nil, err
	}
	y, err := argMeta(n, b)
	if err != nil {
		return nil, err
	}
	if len(x.Sizes) < 2 || len(y.Sizes) != len(x.Sizes) {
		return nil, fmt.Errorf("%s of ranks %d and %d", n.Target, len(x.Sizes), len(y.Sizes))
	}
	out := slices.Clone(x.Sizes)
	out[len(out)-1] = y.Sizes[len(y.Sizes)-1]
	return one(metaOf(ir.PromoteTypes(x.DType, y.DType), out)), nil
}

// convOut is one spatial size of a convolution or pooling window.
func convOut(in, k, stride, pad, dilation int64, ceil bool) int64 {
	span := in + 2*pad - dilation*(k-1) - 1
	if ceil {
		o := (span+stride-1)/stride + 1
		// The last window must start inside the input or the left padding.
		if (o-1)*stride >= in+pad {
			o--
		}
		return o
	}
	return span/stride + 1
}

func inferConvolution(n *ir.Node) ([]*ir.TensorMeta, error) {
	x, err := argMeta(n, "input")
	if err != nil {
		return nil, err
	}
	w, err := argMeta(n, "weight")
	if err != nil {
		return nil, err
	}
	spatial := len(w.Sizes) - 2
	if spatial < 1 || len(x.Sizes) < spatial+1 {
		return nil, fmt.Errorf("%s of a %d-d input by a %d-d weight", n.Target, len(x.Sizes), len(w.Sizes))
	}
	at := func(list []int64, i int, def int64) int64 {
		switch {
		case len(list) == 0:
			return def
		case len(list) == 1:
			return list[0]
		case i < len(list):
			return list[i]
		}
		return def
	}
	stride, pad, dil := n.IntsArg("stride", nil), n.IntsArg("padding", nil), n.IntsArg("dilation", nil)
	outPad := n.IntsArg("output_padding", nil)
	transposed := n.BoolArg("transposed", false)
	groups := n.IntArg("groups", 1)
	batched := len(x.Sizes) == spatial+2
	var out []ir.Dim
	if batched {
		out = append(out, x.Sizes[0])
	}
	if transposed {
		out = append(out, ir.Dim{Size: w.Sizes[1].Size * groups})
	} else {
		out = append(out, w.Sizes[0])
	}
	off := len(x.Sizes) - spatial
	for i := 0; i < spatial; i++ {
		in := x.Sizes[off+i]
		if !in.IsStatic() {
			return nil, fmt.Errorf("%s of a symbolic spatial dim", n.Target)
		}
		k := w.Sizes[2+i].Size
		s, p, d := at(stride, i, 1), at(pad, i, 0), at(dil, i, 1)
		if transposed {
			out = append(out, ir.Dim{Size: (in.Size-1)*s - 2*p + d*(k-1) + at(outPad, i, 0) + 1})
		} else {
			out = append(out, ir.Dim{Size: convOut(in.Size, k, s, p, d, false)})
		}
	}
	return one(metaOf(x.DType, out)), nil
}

func inferLayerNorm(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "input")
	if err != nil {
		return nil, err
	}
	shape := n.IntsArg("normalized_shape", nil)
	k := len(m.Sizes) - len(shape)
	if k < 0 {
		return nil, fmt.Errorf("%s: normalized shape longer than the input", n.Target)
	}
	stat := slices.Clone(m.Sizes)
	for i := k; i < len(stat); i++ {
		stat[i] = ir.Dim{Size: 1}
	}
	return []*ir.TensorMeta{metaOf(m.DType, slices.Clone(m.Sizes)), metaOf(m.DType, stat), metaOf(m.DType, slices.Clone(stat))}, nil
}

func inferGroupNorm(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "input")
	if err != nil {
		return nil, err
	}
	stat := []ir.Dim{m.Sizes[0], {Size: n.IntArg("group", 1)}}
	return []*ir.TensorMeta{metaOf(m.DType, slices.Clone(m.Sizes)), metaOf(m.DType, stat), metaOf(m.DType, slices.Clone(stat))}, nil
}

func inferBatchNormNoTraining(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "input")
	if err != nil {
		return nil, err
	}
	return []*ir.TensorMeta{metaOf(m.DType, slices.Clone(m.Sizes)), metaOf(m.DType, []ir.Dim{{Size: 0}}), metaOf(m.DType, []ir.Dim{{Size: 0}})}, nil
}

func inferPool(indices bool) inferFn {
	return func(n *ir.Node) ([]*ir.TensorMeta, error) {
		m, err := argMeta(n, "self")
		if err != nil {
			return nil, err
		}
		k := n.IntsArg("kernel_size", nil)
		spatial := 2
		switch n.Target {
		case "aten.avg_pool1d.default", "aten.max_pool1d.default":
			spatial = 1
		case "aten.avg_pool3d.default", "aten.max_pool3d_with_indices.default":
			spatial = 3
		}
		if len(m.Sizes) < spatial {
			return nil, fmt.Errorf("%s of rank %d", n.Target, len(m.Sizes))
		}
		at := func(list []int64, i int, def int64) int64 {
			switch {
			case len(list) == 0:
				return def
			case len(list) == 1:
				return list[0]
			}
			return list[i]
		}
		stride := n.IntsArg("stride", nil)
		if len(stride) == 0 {
			stride = k
		}
		pad, dil := n.IntsArg("padding", nil), n.IntsArg("dilation", nil)
		ceil := n.BoolArg("ceil_mode", false)
		out := slices.Clone(m.Sizes)
		off := len(m.Sizes) - spatial
		for i := 0; i < spatial; i++ {
			in := m.Sizes[off+i]
			if !in.IsStatic() {
				return nil, fmt.Errorf("%s of a symbolic spatial dim", n.Target)
			}
			out[off+i] = ir.Dim{Size: convOut(in.Size, at(k, i, 1), at(stride, i, 1), at(pad, i, 0), at(dil, i, 1), ceil)}
		}
		if indices {
			return []*ir.TensorMeta{metaOf(m.DType, out), metaOf(ir.Int64, slices.Clone(out))}, nil
		}
		return one(metaOf(m.DType, out)), nil
	}
}

func inferAdaptivePool(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	size := n.IntsArg("output_size", nil)
	if len(size) > len(m.Sizes) {
		return nil, fmt.Errorf("%s: output size longer than the input", n.Target)
	}
	out := slices.Clone(m.Sizes)
	for i, s := range size {
		out[len(out)-len(size)+i] = ir.Dim{Size: s}
	}
	return one(metaOf(m.DType, out)), nil
}

func inferUpsample(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "input")
	if err != nil {
		return nil, err
	}
	spatial := len(m.Sizes) - 2
	out := slices.Clone(m.Sizes)
	if size := n.IntsArg("output_size", nil); len(size) > 0 {
		for i, s := range size {
			out[2+i] = ir.Dim{Size: s}
		}
		return one(metaOf(m.DType, out)), nil
	}
	a := n.Arg("scale_factors")
	if a == nil || a.Kind != ir.ArgFloats || len(a.Floats) != spatial {
		return nil, fmt.Errorf("%s: neither output_size nor scale_factors", n.Target)
	}
	for i, f := range a.Floats {
		d := m.Sizes[2+i]
		if !d.IsStatic() {
			return nil, fmt.Errorf("%s of a symbolic dim", n.Target)
		}
		out[2+i] = ir.Dim{Size: int64(float64(d.Size) * f)}
	}
	return one(metaOf(m.DType, out)), nil
}

func inferEmbedding(n *ir.Node) ([]*ir.TensorMeta, error) {
	w, err := argMeta(n, "weight")
	if err != nil {
		return nil, err
	}
	idx, err := argMeta(n, "indices")
	if err != nil {
		return nil, err
	}
	return one(metaOf(w.DType, append(slices.Clone(idx.Sizes), w.Sizes[len(w.Sizes)-1]))), nil
}

// inferSymSize marks a symbolic-int result (no tensor meta).
func inferSymSize(*ir.Node) ([]*ir.TensorMeta, error) { return []*ir.TensorMeta{nil}, nil }

func inferTopk(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	out := slices.Clone(m.Sizes)
	if n.Target == "aten.topk.default" && len(out) > 0 {
		d, err := normDim(n.IntArg("dim", -1), len(out))
		if err != nil {
			return nil, err
		}
		out[d] = ir.Dim{Size: n.IntArg("k", 1)}
	}
	return []*ir.TensorMeta{metaOf(m.DType, out), metaOf(ir.Int64, slices.Clone(out))}, nil
}

func inferAsStrided(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	sizes, err := sizesArg(n, "size")
	if err != nil {
		return nil, err
	}
	return one(metaOf(m.DType, sizes)), nil
}

func init() {
	registerInfer(inferMatmul, "aten.matmul.default")
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) { // mv: [n, m] · [m] = [n]
		a, err := argMeta(n, "self")
		if err != nil {
			return nil, err
		}
		v, err := argMeta(n, "vec")
		if err != nil {
			return nil, err
		}
		if len(a.Sizes) != 2 {
			return nil, fmt.Errorf("mv of a %d-d matrix", len(a.Sizes))
		}
		return one(metaOf(ir.PromoteTypes(a.DType, v.DType), a.Sizes[:1:1])), nil
	}, "aten.mv.default")
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) {
		a, err := argMeta(n, "self")
		if err != nil {
			return nil, err
		}
		return one(metaOf(a.DType, nil)), nil
	}, "aten.dot.default")
}

// inferMatmul: matmul's result shape (vectors promoted to matrices and the added dim dropped,
// batch dims broadcast).
func inferMatmul(n *ir.Node) ([]*ir.TensorMeta, error) {
	a, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	b, err := argMeta(n, "other")
	if err != nil {
		return nil, err
	}
	da, db := len(a.Sizes), len(b.Sizes)
	if da == 0 || db == 0 {
		return nil, fmt.Errorf("matmul of a 0-d tensor")
	}
	dt := ir.PromoteTypes(a.DType, b.DType)
	switch {
	case da == 1 && db == 1:
		return one(metaOf(dt, nil)), nil
	case db == 1:
		return one(metaOf(dt, slices.Clone(a.Sizes[:da-1]))), nil
	case da == 1:
		out := slices.Clone(b.Sizes[:db-2])
		return one(metaOf(dt, append(out, b.Sizes[db-1]))), nil
	}
	var ba, bb []ir.Dim
	if da > 2 {
		ba = a.Sizes[:da-2]
	}
	if db > 2 {
		bb = b.Sizes[:db-2]
	}
	batch, err := broadcast(ba, bb)
	if err != nil {
		return nil, fmt.Errorf("matmul: %w", err)
	}
	return one(metaOf(dt, append(batch, a.Sizes[da-2], b.Sizes[db-1]))), nil
}

func init() {
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) {
		m, err := argMeta(n, "self")
		if err != nil {
			return nil, err
		}
		out := slices.Clone(m.Sizes)
		if len(out) == 2 {
			out[0], out[1] = out[1], out[0]
		}
		return one(metaOf(m.DType, out)), nil
	}, "aten.t.default")
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) {
		m, err := argMeta(n, "self")
		if err != nil {
			return nil, err
		}
		out := slices.Clone(m.Sizes)
		if len(out) == 0 {
			return one(metaOf(m.DType, out)), nil
		}
		i, err := normDim(n.IntArg("dim0", 0), len(out))
		if err != nil {
			return nil, err
		}
		j, err := normDim(n.IntArg("dim1", 0), len(out))
		if err != nil {
			return nil, err
		}
		out[i], out[j] = out[j], out[i]
		return one(metaOf(m.DType, out)), nil
	}, "aten.transpose.int")
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) {
		m, err := argMeta(n, "self")
		if err != nil {
			return nil, err
		}
		d, err := normDim(n.IntArg("dim", 0), len(m.Sizes))
		if err != nil {
			return nil, err
		}
		out := slices.Clone(m.Sizes)
		out[d] = ir.Dim{Size: n.IntArg("length", 0)}
		return one(metaOf(m.DType, out)), nil
	}, "aten.narrow.default")
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) { // diagonal(x, offset, dim1, dim2)
		m, err := argMeta(n, "self")
		if err != nil || !m.IsStatic() {
			return nil, fmt.Errorf("diagonal of %v", m)
		}
		d1, err := normDim(n.IntArg("dim1", 0), len(m.Sizes))
		if err != nil {
			return nil, err
		}
		d2, err := normDim(n.IntArg("dim2", 1), len(m.Sizes))
		if err != nil {
			return nil, err
		}
		off := n.IntArg("offset", 0)
		a, b := m.Sizes[d1].Size, m.Sizes[d2].Size
		length := int64(0)
		if off >= 0 {
			length = max(0, min(a, b-off))
		} else {
			length = max(0, min(a+off, b))
		}
		var out []ir.Dim
		for i, s := range m.Sizes {
			if i != d1 && i != d2 {
				out = append(out, s)
			}
		}
		return one(metaOf(m.DType, append(out, ir.Dim{Size: length}))), nil
	}, "aten.diagonal.default")
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) { // unfold(x, dim, size, step)
		m, err := argMeta(n, "self")
		if err != nil {
			return nil, err
		}
		out := slices.Clone(m.Sizes)
		size, step := n.IntArg("size", 1), n.IntArg("step", 1)
		if len(out) == 0 {
			return one(metaOf(m.DType, []ir.Dim{{Size: size}})), nil
		}
		d, err := normDim(n.IntArg("dimension", 0), len(out))
		if err != nil {
			return nil, err
		}
		if !out[d].IsStatic() || step <= 0 {
			return nil, fmt.Errorf("unfold of a symbolic dim or with step %d", step)
		}
		out[d] = ir.Dim{Size: (out[d].Size-size)/step + 1}
		return one(metaOf(m.DType, append(out, ir.Dim{Size: size}))), nil
	}, "aten.unfold.default")
}
