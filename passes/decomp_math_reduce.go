package passes

import (
	"fmt"
	"math"
	"slices"

	"github.com/etgo/etgo/ir"
)

// Reductions outside core ATen, as torch's refs and decompositions (or, for var.default and
// nanmean, the ATen composite) write them.

func init() {
	registerRule(allReduce, "aten.all.default", "aten.all.dim", "aten.all.dims")
	registerRule(aminmax, "aten.aminmax.default")
	registerRule(variance(false), "aten.var.dim", "aten.var.default")
	registerRule(variance(true), "aten.std.dim", "aten.std.default", "aten.std.correction")
	registerRule(nansum, "aten.nansum.default")
	registerRule(nanmean, "aten.nanmean.default")
	registerRule(vectorNorm, "aten.linalg_vector_norm.default")
	registerRule(linalgNorm, "aten.linalg_norm.default")
	registerRule(logsumexp, "aten.logsumexp.default")
}

// dimList turns an absent dim (None) into the empty list amax/amin take for "all dims".
func dimList(a ir.Arg) ir.Arg {
	if a.Kind == ir.ArgNone {
		return Is(a.Name)
	}
	if a.Kind == ir.ArgInt {
		return Is(a.Name, a.Int)
	}
	return a
}

// dimArg is the node's dim argument renamed to as, None when absent.
func dimArg(n *ir.Node, as string) ir.Arg {
	return ArgOr(n, "dim", None(as))
}

// keepdimArg is the node's keepdim (False when absent).
func keepdimArg(n *ir.Node) ir.Arg {
	return Bo("keepdim", n.BoolArg("keepdim", false))
}

// all(x, dim, keepdim) = not any(not x, dim, keepdim) (uint8 stays uint8).
func allReduce(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	not := b.Call("aten.logical_not.default", T("self", x))
	var anyV *ir.Value
	switch d := dimArg(n, "dim"); d.Kind {
	case ir.ArgInt:
		anyV = b.Call("aten.any.dim", T("self", not), d, keepdimArg(n))
	default:
		anyV = b.Call("aten.any.dims", T("self", not), d, keepdimArg(n))
	}
	r := b.Call("aten.logical_not.default", T("self", anyV))
	if x.Meta.DType == ir.Uint8 {
		r = convert(b, r, ir.Uint8)
	}
	return b.Replace(r)
}

// aminmax(x, dim, keepdim) = amin(x, dim, keepdim), amax(x, dim, keepdim).
func aminmax(b *Builder, n *ir.Node) error {
	x := self(b, n)
	dim := dimList(dimArg(n, "dim"))
	lo := b.Call("aten.amin.default", T("self", x), dim, keepdimArg(n))
	hi := b.Call("aten.amax.default", T("self", x), dim, keepdimArg(n))
	return b.Replace(lo, hi)
}

// var.dim / var.default (ATen) = var.correction with an int correction, 1 when unbiased;
// std (torch's ref) = sqrt(var.correction) with the correction as a float, computed in
// float32 for half inputs.
func variance(std bool) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		correction := 1.0
		if !n.BoolArg("unbiased", true) {
			correction = 0
		}
		c := I("correction", int64(correction))
		if a := n.Arg("correction"); isNumber(a) {
			correction = n.ScalarArg("correction", 1)
			c = Renamed(*a, "correction")
		}
		if std {
			c = F("correction", correction)
		}
		c.KwargOnly = true
		keep := keepdimArg(n)
		keep.KwargOnly = true
		result := x.Meta.DType
		x = convert(b, x, computationType(result))
		v := b.Call("aten.var.correction", T("self", x), dimArg(n, "dim"), c, keep)
		if std {
			v = b.Call("aten.sqrt.default", T("self", v))
		}
		return b.Replace(convert(b, v, result))
	}
}

// nansum(x, dim, keepdim, dtype) = sum(where(isnan(x), 0, x), dim, keepdim, dtype).
func nansum(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	w := where(b, b.Call("aten.isnan.default", T("self", x)), I("", 0), T("", x))
	args := []ir.Arg{T("self", w), dimArg(n, "dim"), keepdimArg(n)}
	if d, ok := scalarTypeArg(n, "dtype"); ok {
		args = append(args, Dt("dtype", d))
	}
	return b.Replace(b.Call("aten.sum.dim_IntList", args...))
}

// nanmean (ATen) = nansum(x, dim, keepdim, dtype) / (not isnan(x)).sum(dim, keepdim), isnan
// written x != x on an alias of x.
func nanmean(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	if !x.Meta.DType.IsFloat() {
		return fmt.Errorf("nanmean of a %s tensor", x.Meta.DType)
	}
	a := b.Call("aten.alias.default", T("self", x))
	count := b.Call("aten.logical_not.default", T("self", b.Call("aten.ne.Tensor", T("self", a), T("other", a))))
	count = b.Call("aten.sum.dim_IntList", T("self", count), dimArg(n, "dim"), keepdimArg(n))
	args := []ir.Arg{T("self", x), dimArg(n, "dim"), keepdimArg(n)}
	if d, ok := scalarTypeArg(n, "dtype"); ok {
		args = append(args, Dt("dtype", d))
	}
	s := b.Call("aten.nansum.default", args...)
	return b.Replace(b.Call("aten.div.Tensor", T("self", s), T("other", count)))
}

// ordArg is a norm's ord as given (an int or a float), def when absent.
func ordArg(n *ir.Node, def ir.Arg) (ir.Arg, float64) {
	ord := def
	if a := n.Arg("ord"); a != nil && (a.Kind == ir.ArgInt || a.Kind == ir.ArgFloat) {
		ord = *a
	}
	p := ord.Float
	if ord.Kind == ir.ArgInt {
		p = float64(ord.Int)
	}
	return ord, p
}

// linalg_vector_norm(x, ord, dim, keepdim, dtype) as torch's reference computes it.
func vectorNorm(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	ord, p := ordArg(n, I("ord", 2))
	dt, hasDtype := scalarTypeArg(n, "dtype")
	var dtype *ir.DType
	if hasDtype {
		dtype = &dt
	}
	r, err := vectorNormOf(b, x, ord, p, dimArg(n, "dim"), n.BoolArg("keepdim", false), dtype)
	if err != nil {
		return err
	}
	return b.Replace(r)
}

// vectorNormOf is the reference's vector_norm: ord 0 counts non-zeros, ±inf is amax/amin of
// |x|, otherwise (Σ|x|^ord)^(1/ord), the abs skipped for an even ord of a float tensor; a
// reduction over dims of size 1 only is |x| itself.
func vectorNormOf(b *Builder, x *ir.Value, ord ir.Arg, p float64, dim ir.Arg, keepdim bool, dtype *ir.DType) (*ir.Value, error) {
	if !x.Meta.DType.IsFloat() {
		return nil, fmt.Errorf("linalg_vector_norm of a %s tensor", x.Meta.DType)
	}
	in := x.Meta.DType
	if dtype != nil {
		in = *dtype
	}
	computation, result := computationType(in), in
	keep := Bo("keepdim", keepdim)
	switch {
	case p == 0:
		nz := b.Call("aten.ne.Scalar", T("self", x), F("other", 0))
		return b.Call("aten.sum.dim_IntList", T("self", nz), dim, keep, Dt("dtype", result)), nil
	case math.IsInf(p, 1):
		return convert(b, b.Call("aten.amax.default", T("self", b.Call("aten.abs.default", T("self", x))), Renamed(dimList(dim), "dim"), keep), result), nil
	case math.IsInf(p, -1):
		return convert(b, b.Call("aten.amin.default", T("self", b.Call("aten.abs.default", T("self", x))), Renamed(dimList(dim), "dim"), keep), result), nil
	}
	x = convert(b, x, computation)
	if b.Err() != nil {
		return nil, b.Err()
	}
	even := math.Mod(p, 2) == 0
	rank := len(x.Meta.Sizes)
	var dims []int64
	switch {
	case dim.Kind == ir.ArgInts && len(dim.Ints) == 0:
		dim = None("dim")
	case dim.Kind == ir.ArgInts || dim.Kind == ir.ArgInt:
		list := dim.Ints
		if dim.Kind == ir.ArgInt {
			list = []int64{dim.Int}
		}
		for _, d := range list {
			k, err := normDim(d, rank)
			if err != nil {
				return nil, err
			}
			dims = append(dims, int64(k))
		}
		dim = Is("dim", dims...)
	}
	// Reducing only dims of size 1 (or a one-element tensor) is |x| itself.
	total, static := numel(x.Meta.Sizes)
	single := dim.Kind == ir.ArgNone && static && total == 1
	if dim.Kind != ir.ArgNone && rank > 0 {
		single = true
		for _, d := range dims {
			if s := x.Meta.Sizes[d]; !s.IsStatic() || s.Size != 1 {
				single = false
			}
		}
	}
	if single {
		a := convert(b, b.Call("aten.abs.default", T("self", x)), result)
		switch {
		case keepdim || rank == 0:
			return a, nil
		case dim.Kind == ir.ArgNone:
			if rank > 1 {
				a = b.Call("aten.view.default", T("self", a), Is("size", 1))
			}
			return b.Call("aten.select.int", T("self", a), I("dim", 0), I("index", 0)), nil
		}
		var shape []ir.Dim
		for i, s := range x.Meta.Sizes {
			if !slices.Contains(dims, int64(i)) {
				shape = append(shape, s)
			}
		}
		return b.Call("aten.view.default", T("self", a), staticSizeArg(b, "size", shape)), nil
	}
	if !(even && x.Meta.DType.IsFloat()) {
		x = b.Call("aten.abs.default", T("self", x))
	}
	pw := b.Call("aten.pow.Tensor_Scalar", T("self", x), Renamed(ord, "exponent"))
	sum := b.Call("aten.sum.dim_IntList", T("self", pw), dim, keep)
	return convert(b, b.Call("aten.pow.Tensor_Scalar", T("self", sum), F("exponent", 1/p)), result), nil
}

// linalg_norm (ATen) is a vector norm (ord 2.0 by default) unless an ord is given for a
// matrix (two dims, or none of a 2-d input), which is linalg_matrix_norm.
func linalgNorm(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	dim := dimArg(n, "dim")
	hasOrd := n.Arg("ord") != nil && n.Arg("ord").Kind != ir.ArgNone
	matrix := (dim.Kind == ir.ArgInts && len(dim.Ints) == 2) || (dim.Kind == ir.ArgNone && len(x.Meta.Sizes) == 2)
	var dtype *ir.DType
	if d, ok := scalarTypeArg(n, "dtype"); ok {
		dtype = &d
	}
	if hasOrd && matrix {
		dims := []int64{0, 1}
		if dim.Kind == ir.ArgInts {
			dims = dim.Ints
		}
		r, err := matrixNormOf(b, x, *n.Arg("ord"), dims, n.BoolArg("keepdim", false), dtype)
		if err != nil {
			return err
		}
		return b.Replace(r)
	}
	ord, p := ordArg(n, F("ord", 2))
	r, err := vectorNormOf(b, x, ord, p, dim, n.BoolArg("keepdim", false), dtype)
	if err != nil {
		return err
	}
	return b.Replace(r)
}

// logsumexp(x, dim, keepdim) = log(Σ exp(x - m)) + m, m = amax(x, dim) with infinite maxima
// replaced by 0 (integers computed in the default float).
func logsumexp(b *Builder, n *ir.Node) error {
	x, result := unaryFloat(b, self(b, n))
	if b.Err() != nil {
		return b.Err()
	}
	dim := dimList(ArgOr(n, "dim", Is("dim")))
	keep := n.BoolArg("keepdim", false)
	if total, ok := numel(x.Meta.Sizes); ok && total == 0 {
		s := b.Call("aten.sum.dim_IntList", T("self", b.Call("aten.exp.default", T("self", x))), dim, Bo("keepdim", keep))
		return b.Replace(convert(b, b.Call("aten.log.default", T("self", s)), result))
	}
	m := b.Call("aten.amax.default", T("self", x), dim, Bo("keepdim", true))
	inf := b.Call("aten.eq.Scalar", T("self", b.Call("aten.abs.default", T("self", m))), F("other", math.Inf(1)))
	m = b.Call("aten.where.self", T("condition", inf), T("self", scalarTensor(b, F("", 0), m)), T("other", m))
	shift := m
	if !keep {
		shift = b.Call("aten.squeeze.dims", T("self", m), Renamed(dim, "dim"))
	}
	e := b.Call("aten.exp.default", T("self", b.Call("aten.sub.Tensor", T("self", x), T("other", m))))
	s := b.Call("aten.sum.dim_IntList", T("self", e), dim, Bo("keepdim", keep))
	return b.Replace(convert(b, b.Call("aten.add.Tensor", T("self", b.Call("aten.log.default", T("self", s))), T("other", shift)), result))
}

func init() {
	registerRule(matrixNorm, "aten.linalg_matrix_norm.default", "aten.linalg_matrix_norm.str_ord")
	registerRule(matrixRank, "aten.linalg_matrix_rank.atol_rtol_tensor", "aten.linalg_matrix_rank.atol_rtol_float",
		"aten.linalg_matrix_rank.tol_tensor", "aten.linalg_matrix_rank.default")
}

// linalg_matrix_norm (ATen): "fro" is the 2-norm of the entries, ±1 and ±inf the max/min over
// one dim of the 1-norms over the other; 2 and "nuc" need singular values, which core ATen
// does not have.
func matrixNorm(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	var dtype *ir.DType
	if d, ok := scalarTypeArg(n, "dtype"); ok {
		dtype = &d
	}
	ord := n.Arg("ord")
	if ord == nil || ord.Kind == ir.ArgNone {
		s := S("ord", "fro")
		ord = &s
	}
	r, err := matrixNormOf(b, x, *ord, n.IntsArg("dim", []int64{-2, -1}), n.BoolArg("keepdim", false), dtype)
	if err != nil {
		return err
	}
	return b.Replace(r)
}

func matrixNormOf(b *Builder, x *ir.Value, ord ir.Arg, dim []int64, keepdim bool, dtype *ir.DType) (*ir.Value, error) {
	if len(dim) != 2 {
		return nil, fmt.Errorf("linalg_matrix_norm over %d dims", len(dim))
	}
	if ord.Kind == ir.ArgString {
		if ord.Str != "fro" {
			return nil, fmt.Errorf("linalg_matrix_norm with ord %q needs singular values (not core ATen)", ord.Str)
		}
		return vectorNormOf(b, x, I("ord", 2), 2, Is("dim", dim...), keepdim, dtype)
	}
	p := ord.Float
	if ord.Kind == ir.ArgInt {
		p = float64(ord.Int)
	}
	switch math.Abs(p) {
	case 1, math.Inf(1):
	case 2:
		return nil, fmt.Errorf("linalg_matrix_norm with ord %v needs singular values (not core ATen)", p)
	default:
		return nil, fmt.Errorf("linalg_matrix_norm with ord %v", p)
	}
	rank := len(x.Meta.Sizes)
	d0, err := normDim(dim[0], rank)
	if err != nil {
		return nil, err
	}
	d1, err := normDim(dim[1], rank)
	if err != nil {
		return nil, err
	}
	if math.IsInf(p, 0) {
		d0, d1 = d1, d0
	}
	if !keepdim && d0 < d1 {
		d1--
	}
	v, err := vectorNormOf(b, x, F("ord", 1), 1, Is("dim", int64(d0)), keepdim, dtype)
	if err != nil {
		return nil, err
	}
	reduce := "aten.amax.default"
	if p < 0 {
		reduce = "aten.amin.default"
	}
	if s := v.Meta.Sizes[d1]; s.IsStatic() && s.Size == 0 && p > 0 {
		return nil, fmt.Errorf("linalg_matrix_norm over an empty dim is not decomposed yet")
	}
	return b.Call(reduce, T("self", v), Is("dim", int64(d1)), Bo("keepdim", keepdim)), nil
}

// linalg_matrix_rank (ATen) of an empty input is zeros of the batch shape; otherwise it needs
// singular (or eigen) values, which core ATen does not have.
func matrixRank(b *Builder, n *ir.Node) error {
	x := tensorArg(b, n, "input")
	if x == nil {
		x = self(b, n)
	}
	if b.Err() != nil {
		return b.Err()
	}
	total, ok := numel(x.Meta.Sizes)
	if !ok || total != 0 || len(x.Meta.Sizes) < 2 {
		return fmt.Errorf("linalg_matrix_rank needs singular values (not core ATen)")
	}
	batch := x.Meta.Sizes[:len(x.Meta.Sizes)-2]
	e := b.Call("aten.empty.memory_format", staticSizeArg(b, "size", batch), Dt("dtype", ir.Int64), layoutStrided(), deviceCPU())
	return b.Replace(fullLike(b, e, I("", 0), nil, false))
}

func init() {
	registerRule(quantile(false), "aten.quantile.scalar")
	registerRule(quantile(true), "aten.nanquantile.scalar")
}

// quantile / nanquantile with a number q (ATen's quantile_impl): the reduced dim moved last and
// the input viewed as [out…, n]; ranks q·(n-1) in double (the last index where a row holds a
// NaN; for nanquantile q·(count of non-NaN - 1), at least 0); the sorted values gathered at the
// ranks below and above and interpolated as asked.
func quantile(ignoreNaN bool) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		if x.Meta.DType != ir.Float32 && x.Meta.DType != ir.Float64 {
			return fmt.Errorf("%s of a %s tensor", n.Target, x.Meta.DType)
		}
		total, ok := numel(x.Meta.Sizes)
		if !ok || total == 0 {
			return fmt.Errorf("%s of an empty or symbolic input", n.Target)
		}
		q := n.ScalarArg("q", -1)
		if q < 0 || q > 1 {
			return fmt.Errorf("%s with q %v outside [0, 1]", n.Target, q)
		}
		interp := "linear"
		if a := n.Arg("interpolation"); a != nil && a.Kind == ir.ArgString {
			interp = a.Str
		}
		switch interp {
		case "linear", "lower", "higher", "midpoint", "nearest":
		default:
			return fmt.Errorf("%s with interpolation %q", n.Target, interp)
		}
		rank := len(x.Meta.Sizes)
		dimA := n.Arg("dim")
		hasDim := dimA != nil && dimA.Kind == ir.ArgInt
		wrapped := 0
		if hasDim {
			k, err := normDim(dimA.Int, rank)
			if err != nil {
				return err
			}
			wrapped = k
		}
		keepdim := n.BoolArg("keepdim", false)
		sizes := sizesOf(x.Meta)
		var outShape []int64
		switch {
		case hasDim && rank > 0:
			outShape = slices.Clone(sizes)
			if keepdim {
				outShape[wrapped] = 1
			} else {
				outShape = slices.Delete(outShape, wrapped, wrapped+1)
			}
		case keepdim:
			outShape = repeat(1, rank)
		}
		qt := scalarOf(b, F("", q), x.Meta.DType)
		values := x
		switch {
		case !hasDim:
			if rank != 1 {
				values = b.Call("aten.reshape.default", T("self", x), Is("shape", total))
			}
		case wrapped == rank-1:
		default:
			values = b.Call("aten.unsqueeze.default", T("self", x), I("dim", -1))
			last := len(values.Meta.Sizes) - 1
			if wrapped == last {
				values = b.Call("aten.alias.default", T("self", values))
			} else {
				perm := identity(last + 1)
				perm[wrapped], perm[last] = perm[last], perm[wrapped]
				values = b.Call("aten.permute.default", T("self", values), Is("dims", perm...))
			}
		}
		if b.Err() != nil {
			return b.Err()
		}
		inShape := append(slices.Clone(outShape), values.Meta.Sizes[len(values.Meta.Sizes)-1].Size)
		values = b.Call("aten.reshape.default", T("self", values), Is("shape", inShape...))
		if b.Err() != nil {
			return b.Err()
		}
		var ranks *ir.Value
		if ignoreNaN {
			count := b.Call("aten.logical_not.default", T("self", b.Call("aten.isnan.default", T("self", values))))
			count = b.Call("aten.sum.dim_IntList", T("self", count), Is("dim", -1), Bo("keepdim", true))
			count = b.Call("aten.sub.Scalar", T("self", count), I("other", 1))
			ranks = b.Call("aten.mul.Tensor", T("self", convert(b, qt, ir.Float64)), T("other", count))
			neg := b.Call("aten.lt.Scalar", T("self", ranks), I("other", 0))
			ranks = b.Call("aten.where.self", T("condition", neg), T("self", scalarTensor(b, F("", 0), ranks)), T("other", ranks))
		} else {
			last := values.Meta.Sizes[len(values.Meta.Sizes)-1].Size - 1
			scaled := b.Call("aten.mul.Scalar", T("self", convert(b, qt, ir.Float64)), I("other", last))
			nan := b.Call("aten.any.dim", T("self", b.Call("aten.isnan.default", T("self", values))), I("dim", -1), Bo("keepdim", true))
			// broadcast_tensors expands only the operands of another shape.
			common, err := broadcastShapes(scaled, nan)
			if err != nil {
				return err
			}
			if !sameDims(scaled.Meta.Sizes, common) {
				scaled = b.Call("aten.expand.default", T("self", scaled), staticSizeArg(b, "size", common))
			}
			if !sameDims(nan.Meta.Sizes, common) {
				nan = b.Call("aten.expand.default", T("self", nan), staticSizeArg(b, "size", common))
			}
			ranks = b.Call("aten.where.self", T("condition", nan), T("self", scalarTensor(b, F("", float64(last)), scaled)), T("other", scaled))
		}
		switch interp {
		case "lower":
			ranks = b.Call("aten.floor.default", T("self", ranks))
		case "higher":
			ranks = b.Call("aten.ceil.default", T("self", ranks))
		case "nearest":
			ranks = b.Call("aten.round.default", T("self", ranks))
		}
		toLong := func(v *ir.Value) *ir.Value {
			return b.Call("aten._to_copy.default", T("self", v), Dt("dtype", ir.Int64), layoutStrided(), deviceCPU())
		}
		below := toLong(ranks)
		interpolate := interp == "linear" || interp == "midpoint"
		var weights, above *ir.Value
		if interpolate {
			if interp == "midpoint" {
				weights = b.Call("aten.full_like.default", T("self", ranks), F("fill_value", 0.5), Dt("dtype", x.Meta.DType), layoutStrided(), deviceCPU())
			} else {
				weights = convert(b, b.Call("aten.sub.Tensor", T("self", ranks), T("other", below)), x.Meta.DType)
			}
			above = toLong(b.Call("aten.ceil.default", T("self", ranks)))
		}
		sorted := b.CallN("aten.sort.default", T("self", values), I("dim", -1), Bo("descending", false))
		if b.Err() != nil {
			return b.Err()
		}
		r := b.Call("aten.gather.default", T("self", sorted[0]), I("dim", -1), T("index", below))
		if interpolate {
			va := b.Call("aten.gather.default", T("self", sorted[0]), I("dim", -1), T("index", above))
			r = b.Call("aten.lerp.Tensor", T("self", r), T("end", va), T("weight", weights))
		}
		return b.Replace(b.Call("aten.squeeze.dims", T("self", r), Is("dim", -1)))
	}
}
