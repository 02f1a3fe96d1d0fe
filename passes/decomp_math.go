package passes

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/ir"
)

// Elementwise math as torch's decomposition table writes it (torch/_refs, torch/_decomp) and,
// for the composite operators the table leaves to their ATen kernel (isfinite, isclose,
// float_power, special_ndtr, …), as that C++ code traces: the same operators in the same
// order, with the type-promotion conversions torch's wrappers insert.

func init() {
	registerRule(sgn, "aten.sgn.default")
	registerRule(sinc, "aten.sinc.default")
	registerRule(isfinite, "aten.isfinite.default")
	registerRule(isInfSigned(1), "aten.isposinf.default")
	registerRule(isInfSigned(-1), "aten.isneginf.default")
	registerRule(isreal, "aten.isreal.default")
	registerRule(heaviside, "aten.heaviside.default")
	registerRule(xlogyLike("aten.log.default"), "aten.xlogy.Tensor")
	registerRule(xlogyLike("aten.log1p.default"), "aten.special_xlog1py.default")
	registerRule(logit, "aten.logit.default")
	registerRule(entr, "aten.special_entr.default")
	registerRule(ndtr, "aten.special_ndtr.default")
	registerRule(logaddexp, "aten.logaddexp.default")
	registerRule(lerp, "aten.lerp.Scalar", "aten.lerp.Tensor")
	registerRule(floatPower, "aten.float_power.Tensor_Tensor", "aten.float_power.Tensor_Scalar", "aten.float_power.Scalar")
	registerRule(floorDivide, "aten.floor_divide.default")
	registerRule(isclose, "aten.isclose.default")
	registerRule(isin, "aten.isin.Tensor_Tensor")
	registerRule(clampTensorSide("min"), "aten.clamp_min.Tensor")
	registerRule(clampTensorSide("max"), "aten.clamp_max.Tensor")
	registerRule(fillScalar, "aten.fill.Scalar")
	registerRule(zero, "aten.zero.default")
	registerRule(maskedFillTensor, "aten.masked_fill.Tensor")
}

// Type promotion of torch's elementwise wrappers (ELEMENTWISE_TYPE_PROMOTION_KIND).
type promotion int

const (
	promoteDefault    promotion = iota // the promoted type
	promoteIntToFloat                  // integers and bools compute in the default float
	promoteAlwaysBool                  // computed in the promoted type, the result is bool
	promoteNoOpmath                    // no upcast of half types to float for computing
)

// isNumber reports a Python number argument.
func isNumber(a *ir.Arg) bool {
	return a != nil && (a.Kind == ir.ArgInt || a.Kind == ir.ArgFloat || a.Kind == ir.ArgBool)
}

// operandOf describes an argument (tensor or number) for result-type computation.
func operandOf(a ir.Arg) (ir.Operand, bool) {
	switch a.Kind {
	case ir.ArgTensor:
		if len(a.Values) == 1 && a.Values[0] != nil && a.Values[0].Meta != nil {
			return ir.TensorOperand(a.Values[0].Meta), true
		}
	case ir.ArgInt, ir.ArgFloat, ir.ArgBool:
		return ir.ScalarOperand(a.Kind), true
	}
	return ir.Operand{}, false
}

// computationType is torch's opmath type: half types compute in float32.
func computationType(d ir.DType) ir.DType {
	if d == ir.Float16 || d == ir.BFloat16 {
		return ir.Float32
	}
	return d
}

// elementwiseTypes is utils.elementwise_dtypes over the arguments: the type operands are
// converted to before computing, and the type of the result.
func elementwiseTypes(kind promotion, args ...ir.Arg) (compute, result ir.DType) {
	var ops []ir.Operand
	for _, a := range args {
		if op, ok := operandOf(a); ok {
			ops = append(ops, op)
		}
	}
	rt := ir.ResultType(ops...)
	switch kind {
	case promoteIntToFloat:
		if !rt.IsFloat() {
			rt = ir.Float32
		}
		return computationType(rt), rt
	case promoteAlwaysBool:
		return computationType(rt), ir.Bool
	case promoteNoOpmath:
		return rt, rt
	}
	return computationType(rt), rt
}

// convert is x.to(dtype): x itself when it already has that type.
func convert(b *Builder, x *ir.Value, dtype ir.DType) *ir.Value {
	if x == nil || x.Meta == nil || x.Meta.DType == dtype {
		return x
	}
	return b.Call("aten._to_copy.default", T("self", x), Dt("dtype", dtype))
}

// convertArg is _maybe_convert_to_dtype of one argument: a tensor converted by _to_copy, a
// number made the Python type of dtype.
func convertArg(b *Builder, a ir.Arg, dtype ir.DType) ir.Arg {
	if a.Kind == ir.ArgTensor {
		return T(a.Name, convert(b, a.Values[0], dtype))
	}
	return pyNumber(a, dtype)
}

// pyNumber is a number argument as the Python type of dtype (utils.dtype_to_type_ctor): a
// float for floating types, an int (truncated) for integers, a bool for bool.
func pyNumber(a ir.Arg, dtype ir.DType) ir.Arg {
	f := a.Float
	switch a.Kind {
	case ir.ArgInt:
		f = float64(a.Int)
	case ir.ArgBool:
		f = 0
		if a.Bool {
			f = 1
		}
	case ir.ArgFloat:
	default:
		return a
	}
	switch {
	case dtype == ir.Bool:
		return Bo(a.Name, f != 0)
	case dtype.IsFloat():
		return F(a.Name, f)
	}
	return I(a.Name, int64(f))
}

// promoteOperandsTo converts each tensor among vs to dtype, in order.
func promoteOperandsTo(b *Builder, dtype ir.DType, vs ...*ir.Value) []*ir.Value {
	out := make([]*ir.Value, len(vs))
	for i, v := range vs {
		out[i] = convert(b, v, dtype)
	}
	return out
}

// staticSizeArg is a size-list argument of dims, or a recorded failure when one is symbolic
// (the decomposition would need sym_size nodes, which these rules do not write).
func staticSizeArg(b *Builder, name string, dims []ir.Dim) ir.Arg {
	for _, d := range dims {
		if !d.IsStatic() {
			b.Fail("a size list with the symbolic dim %s is not decomposed yet", d)
			break
		}
	}
	return sizeArg(name, dims)
}

// broadcastShapes is the common shape of the values.
func broadcastShapes(vs ...*ir.Value) ([]ir.Dim, error) {
	var shapes [][]ir.Dim
	for _, v := range vs {
		if v != nil {
			shapes = append(shapes, v.Meta.Sizes)
		}
	}
	return broadcast(shapes...)
}

// maybeBroadcast is torch._refs._maybe_broadcast: each tensor whose shape is not the common
// one is expanded to it, except 0-d tensors (CPU scalars), which stay as they are.
func maybeBroadcast(b *Builder, vs ...*ir.Value) []*ir.Value {
	if b.Err() != nil {
		return vs
	}
	common, err := broadcastShapes(vs...)
	if err != nil {
		b.Fail("%w", err)
		return vs
	}
	out := make([]*ir.Value, len(vs))
	for i, v := range vs {
		out[i] = v
		if v == nil || len(v.Meta.Sizes) == 0 || sameDims(v.Meta.Sizes, common) {
			continue
		}
		for _, d := range common {
			if !d.IsStatic() {
				b.Fail("broadcasting to a symbolic shape is not decomposed yet")
				return vs
			}
		}
		out[i] = b.Call("aten.expand.default", T("self", v), staticSizeArg(b, "size", common))
	}
	return out
}

func sameDims(a, b []ir.Dim) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// where is torch.where(cond, a, c) with tensors or Python numbers, as ATen's overloads write
// it: a number becomes scalar_tensor of the result type (with two numbers, c's first), and a
// tensor of another type is converted to it.
func where(b *Builder, cond *ir.Value, a, c ir.Arg) *ir.Value {
	if b.Err() != nil {
		return nil
	}
	at, ct := a.Kind == ir.ArgTensor, c.Kind == ir.ArgTensor
	switch {
	case at && ct:
		return b.Call("aten.where.self", T("condition", cond), Renamed(a, "self"), Renamed(c, "other"))
	case ct:
		other := c.Values[0]
		rt := ir.ResultType(ir.TensorOperand(other.Meta), ir.ScalarOperand(a.Kind))
		other = convert(b, other, rt)
		s := scalarOf(b, a, rt)
		return b.Call("aten.where.self", T("condition", cond), T("self", s), T("other", other))
	case at:
		self := a.Values[0]
		rt := ir.ResultType(ir.TensorOperand(self.Meta), ir.ScalarOperand(c.Kind))
		self = convert(b, self, rt)
		s := scalarOf(b, c, rt)
		return b.Call("aten.where.self", T("condition", cond), T("self", self), T("other", s))
	}
	rt := ir.ResultType(ir.ScalarOperand(a.Kind), ir.ScalarOperand(c.Kind))
	other := scalarOf(b, c, rt)
	self := scalarOf(b, a, rt)
	return b.Call("aten.where.self", T("condition", cond), T("self", self), T("other", other))
}

// scalarOf is at::scalar_tensor(s, dtype) on the CPU.
func scalarOf(b *Builder, s ir.Arg, dtype ir.DType) *ir.Value {
	s.Name = "s"
	return b.Call("aten.scalar_tensor.default", s, Dt("dtype", dtype), layoutStrided(), deviceCPU())
}

// tensorOrNumber is the node's argument name as given, or a failure when absent.
func argOf(b *Builder, n *ir.Node, name string) ir.Arg {
	if a := n.Arg(name); a != nil && a.Kind != ir.ArgNone {
		return *a
	}
	b.Fail("%s: argument %s is missing", n.Target, name)
	return None(name)
}

// tensorArg is the node's tensor argument name, or a recorded failure.
func tensorArg(b *Builder, n *ir.Node, name string) *ir.Value {
	if v := n.TensorArg(name); v != nil && v.Meta != nil {
		return v
	}
	return b.Fail("%s: %s is not a tensor", n.Target, name)
}

// fullLike is full_like(x, fill, dtype, pin_memory=False[, memory_format]) as the refs' zeros_like
// and ones_like call it (memory format preserve), or fill's decomposition (no memory format).
func fullLike(b *Builder, x *ir.Value, fill ir.Arg, dtype *ir.DType, preserve bool) *ir.Value {
	fill.Name = "fill_value"
	args := []ir.Arg{T("self", x), fill}
	if dtype != nil {
		args = append(args, Dt("dtype", *dtype))
	}
	args = append(args, ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
	if preserve {
		args = append(args, ir.Arg{Name: "memory_format", Kind: ir.ArgMemoryFormat, Int: memoryFormatPreserve, KwargOnly: true})
	}
	return b.Call("aten.full_like.default", args...)
}

// boolLike is ones_like/zeros_like(x, dtype=torch.bool).
func boolLike(b *Builder, x *ir.Value, v bool) *ir.Value {
	bt := ir.Bool
	return fullLike(b, x, Bo("", v), &bt, true)
}

// unaryFloat applies INT_TO_FLOAT promotion to a unary reference's input.
func unaryFloat(b *Builder, x *ir.Value) (*ir.Value, ir.DType) {
	if x == nil {
		return nil, 0
	}
	compute, result := elementwiseTypes(promoteIntToFloat, T("a", x))
	return convert(b, x, compute), result
}

// sgn is sign for real tensors.
func sgn(b *Builder, n *ir.Node) error {
	return b.Replace(b.Call("aten.sign.default", T("self", self(b, n))))
}

// sinc(x) = where(πx == 0, 1, sin(πx) / πx).
func sinc(b *Builder, n *ir.Node) error {
	x, result := unaryFloat(b, self(b, n))
	x = b.Call("aten.mul.Tensor", T("self", x), F("other", math.Pi))
	zero := b.Call("aten.eq.Scalar", T("self", x), I("other", 0))
	q := b.Call("aten.div.Tensor", T("self", b.Call("aten.sin.default", T("self", x))), T("other", x))
	return b.Replace(convert(b, where(b, zero, I("", 1), T("", q)), result))
}

// isfinite (ATen): integers are all finite; floats are (x == x) * (|x| != inf).
func isfinite(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	return b.Replace(isFiniteOf(b, x))
}

func isFiniteOf(b *Builder, x *ir.Value) *ir.Value {
	if !x.Meta.DType.IsFloat() {
		return boolLike(b, x, true)
	}
	notInf := b.Call("aten.ne.Scalar", T("self", b.Call("aten.abs.default", T("self", x))), F("other", math.Inf(1)))
	notNaN := b.Call("aten.eq.Tensor", T("self", x), T("other", x))
	return b.Call("aten.mul.Tensor", T("self", notNaN), T("other", notInf))
}

// isposinf(x) = x == inf (isneginf: -inf); integers never are.
func isInfSigned(sign int) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		if !x.Meta.DType.IsFloat() {
			return b.Replace(boolLike(b, x, false))
		}
		return b.Replace(b.Call("aten.eq.Scalar", T("self", x), F("other", math.Inf(sign))))
	}
}

// isreal of a real tensor is all true.
func isreal(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	return b.Replace(boolLike(b, x, true))
}

// binaryDefault applies a binary reference's DEFAULT promotion and broadcasting to two tensors.
func binaryRef(b *Builder, kind promotion, x, y *ir.Value) (*ir.Value, *ir.Value, ir.DType) {
	if x == nil || y == nil {
		return nil, nil, 0
	}
	compute, result := elementwiseTypes(kind, T("a", x), T("b", y))
	vs := promoteOperandsTo(b, compute, x, y)
	vs = maybeBroadcast(b, vs...)
	return vs[0], vs[1], result
}

// heaviside(x, values) = where(x == 0, values, where(x < 0 or isnan(x), 0, 1)).
func heaviside(b *Builder, n *ir.Node) error {
	x, values, result := binaryRef(b, promoteDefault, self(b, n), tensorArg(b, n, "values"))
	eqZero := b.Call("aten.eq.Scalar", T("self", x), I("other", 0))
	ltZero := b.Call("aten.logical_or.default", T("self", b.Call("aten.lt.Scalar", T("self", x), I("other", 0))),
		T("other", b.Call("aten.isnan.default", T("self", x))))
	zo := where(b, ltZero, I("", 0), I("", 1))
	return b.Replace(convert(b, where(b, eqZero, T("", values), T("", zo)), result))
}

// xlogy(a, b) = where(isnan(b), nan, where(a == 0, 0, a * log(b))) (special_xlog1py: log1p).
func xlogyLike(logOp string) rule {
	return func(b *Builder, n *ir.Node) error {
		x, y := self(b, n), tensorArg(b, n, "other")
		if b.Err() != nil {
			return b.Err()
		}
		compute, result := elementwiseTypes(promoteIntToFloat, T("a", x), T("b", y))
		x, y = convert(b, x, compute), convert(b, y, compute)
		eqZero := b.Call("aten.eq.Scalar", T("self", x), I("other", 0))
		prod := b.Call("aten.mul.Tensor", T("self", x), T("other", b.Call(logOp, T("self", y))))
		rhs := where(b, eqZero, I("", 0), T("", prod))
		out := where(b, b.Call("aten.isnan.default", T("self", y)), F("", math.NaN()), T("", rhs))
		return b.Replace(convert(b, out, result))
	}
}

// logit(x, eps) = log(x / (1 - x)) of x clamped to [eps, 1 - eps] (eps -1 when not given).
func logit(b *Builder, n *ir.Node) error {
	x, result := unaryFloat(b, self(b, n))
	eps := -1.0
	if a := n.Arg("eps"); a != nil && (a.Kind == ir.ArgFloat || a.Kind == ir.ArgInt) {
		eps = n.ScalarArg("eps", -1)
	}
	lo, hi := eps, 1-eps
	below := b.Call("aten.lt.Scalar", T("self", x), F("other", lo))
	above := b.Call("aten.gt.Scalar", T("self", x), F("other", hi))
	x = where(b, below, F("", lo), T("", where(b, above, F("", hi), T("", x))))
	q := b.Call("aten.div.Tensor", T("self", x), T("other", b.Call("aten.sub.Tensor", I("self", 1), T("other", x))))
	return b.Replace(convert(b, b.Call("aten.log.default", T("self", q)), result))
}

// special_entr(x) = where(isnan(x), x, where(x > 0, -x log x, where(x == 0, 0, -inf))).
func entr(b *Builder, n *ir.Node) error {
	x, result := unaryFloat(b, self(b, n))
	nan := b.Call("aten.isnan.default", T("self", x))
	pos := b.Call("aten.gt.Scalar", T("self", x), I("other", 0))
	xlogx := b.Call("aten.mul.Tensor", T("self", b.Call("aten.neg.default", T("self", x))), T("other", b.Call("aten.log.default", T("self", x))))
	zero := b.Call("aten.eq.Scalar", T("self", x), I("other", 0))
	inner := where(b, zero, I("", 0), F("", math.Inf(-1)))
	out := where(b, nan, T("", x), T("", where(b, pos, T("", xlogx), T("", inner))))
	return b.Replace(convert(b, out, result))
}

// special_ndtr (ATen): (1 + erf(x · √½)) · 0.5.
func ndtr(b *Builder, n *ir.Node) error {
	x := self(b, n)
	y := b.Call("aten.mul.Scalar", T("self", x), F("other", 0.707106781186547524400844362104849039))
	y = b.Call("aten.erf.default", T("self", y))
	y = b.Call("aten.add.Scalar", T("self", y), I("other", 1))
	return b.Replace(b.Call("aten.mul.Scalar", T("self", y), F("other", 0.5)))
}

// logaddexp(a, b) = where(a infinite and a == b, a, max + log1p(exp(min - max))).
func logaddexp(b *Builder, n *ir.Node) error {
	x, y, result := binaryRef(b, promoteDefault, self(b, n), tensorArg(b, n, "other"))
	if b.Err() != nil {
		return b.Err()
	}
	if !x.Meta.DType.IsFloat() {
		return fmt.Errorf("logaddexp of %s tensors is not decomposed yet", x.Meta.DType)
	}
	mask := b.Call("aten.ge.Tensor", T("self", x), T("other", y))
	hi := b.Call("aten.where.self", T("condition", mask), T("self", x), T("other", y))
	lo := b.Call("aten.where.self", T("condition", mask), T("self", y), T("other", x))
	inf := b.Call("aten.logical_and.default", T("self", b.Call("aten.logical_not.default", T("self", b.Call("aten.isfinite.default", T("self", x))))),
		T("other", b.Call("aten.eq.Tensor", T("self", x), T("other", y))))
	s := b.Call("aten.log1p.default", T("self", b.Call("aten.exp.default", T("self", b.Call("aten.sub.Tensor", T("self", lo), T("other", hi))))))
	s = b.Call("aten.add.Tensor", T("self", hi), T("other", s))
	return b.Replace(convert(b, b.Call("aten.where.self", T("condition", inf), T("self", x), T("other", s)), result))
}

// lerp(start, end, weight) = coeff · (end - start) + base, coeff and base chosen by
// |weight| >= 0.5 for stability; a number weight becomes start.new_full((), weight).
func lerp(b *Builder, n *ir.Node) error {
	start, end := self(b, n), tensorArg(b, n, "end")
	w := argOf(b, n, "weight")
	if b.Err() != nil {
		return b.Err()
	}
	compute, result := elementwiseTypes(promoteDefault, T("a", start), T("b", end), w)
	start, end = convert(b, start, compute), convert(b, end, compute)
	w = convertArg(b, w, compute)
	var weight *ir.Value
	if w.Kind == ir.ArgTensor {
		weight = w.Values[0]
	} else {
		weight = b.Call("aten.full.default", Is("size"), Renamed(w, "fill_value"), Dt("dtype", start.Meta.DType),
			layoutStrided(), deviceCPU(), ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
	}
	mask := b.Call("aten.ge.Scalar", T("self", b.Call("aten.abs.default", T("self", weight))), F("other", 0.5))
	coeff := b.Call("aten.where.self", T("condition", mask), T("self", b.Call("aten.sub.Tensor", T("self", weight), I("other", 1))), T("other", weight))
	base := b.Call("aten.where.self", T("condition", mask), T("self", end), T("other", start))
	out := b.Call("aten.mul.Tensor", T("self", coeff), T("other", b.Call("aten.sub.Tensor", T("self", end), T("other", start))))
	out = b.Call("aten.add.Tensor", T("self", out), T("other", base))
	return b.Replace(convert(b, out, result))
}

// float_power(base, exp) (ATen) = pow(base.to(double), exp.to(double)), the exponent converted
// first (the C++ argument order); a number operand is passed as a double.
func floatPower(b *Builder, n *ir.Node) error {
	base, exp := argOf(b, n, "self"), argOf(b, n, "exponent")
	if b.Err() != nil {
		return b.Err()
	}
	if base.Kind != ir.ArgTensor {
		e := convert(b, exp.Values[0], ir.Float64)
		return b.Replace(b.Call("aten.pow.Scalar", pyNumber(Renamed(base, "self"), ir.Float64), T("exponent", e)))
	}
	if exp.Kind != ir.ArgTensor {
		x := convert(b, base.Values[0], ir.Float64)
		return b.Replace(b.Call("aten.pow.Tensor_Scalar", T("self", x), pyNumber(Renamed(exp, "exponent"), ir.Float64)))
	}
	e := convert(b, exp.Values[0], ir.Float64)
	x := convert(b, base.Values[0], ir.Float64)
	return b.Replace(b.Call("aten.pow.Tensor_Tensor", T("self", x), T("exponent", e)))
}

// floor_divide(a, b) = div(a, b, rounding_mode="floor").
func floorDivide(b *Builder, n *ir.Node) error {
	return b.Replace(b.Call("aten.div.Tensor_mode", T("self", self(b, n)), argOf(b, n, "other"), S("rounding_mode", "floor")))
}

// isclose (ATen): a == b, or (with tolerances) |a - b| finite and <= atol + |rtol · b|;
// equal_nan also accepts two NaNs.
func isclose(b *Builder, n *ir.Node) error {
	x, y := self(b, n), tensorArg(b, n, "other")
	if b.Err() != nil {
		return b.Err()
	}
	rtol, atol := n.ScalarArg("rtol", 1e-05), n.ScalarArg("atol", 1e-08)
	closeV := b.Call("aten.eq.Tensor", T("self", x), T("other", y))
	if n.BoolArg("equal_nan", false) && x.Meta.DType.IsFloat() {
		nans := b.Call("aten.bitwise_and.Tensor", T("self", b.Call("aten.isnan.default", T("self", x))), T("other", b.Call("aten.isnan.default", T("self", y))))
		closeV = b.Call("aten.bitwise_or.Tensor", T("self", closeV), T("other", nans))
	}
	if atol == 0 && rtol == 0 {
		return b.Replace(closeV)
	}
	// Non-float operands compute the errors in the default float (other converted first).
	cast := !x.Meta.DType.IsFloat()
	if cast {
		y = convert(b, y, ir.Float32)
	}
	allowed := b.Call("aten.abs.default", T("self", b.Call("aten.mul.Scalar", T("self", y), F("other", rtol))))
	allowed = b.Call("aten.add.Scalar", T("self", allowed), F("other", atol))
	if cast {
		x = convert(b, x, ir.Float32)
	}
	actual := b.Call("aten.abs.default", T("self", b.Call("aten.sub.Tensor", T("self", x), T("other", y))))
	finite := isFiniteOf(b, actual)
	within := b.Call("aten.bitwise_and.Tensor", T("self", finite), T("other", b.Call("aten.le.Tensor", T("self", actual), T("other", allowed))))
	return b.Replace(b.Call("aten.bitwise_or.Tensor", T("self", closeV), T("other", within)))
}

// isin(elements, test) compares every element with every test element when the test set is
// small (torch's isin_default); the sorting variant needs searchsorted, outside core ATen.
func isin(b *Builder, n *ir.Node) error {
	x, t := tensorArg(b, n, "elements"), tensorArg(b, n, "test_elements")
	if b.Err() != nil {
		return b.Err()
	}
	ne, okE := numel(x.Meta.Sizes)
	nt, okT := numel(t.Meta.Sizes)
	if !okE || !okT {
		return fmt.Errorf("isin with symbolic sizes is not decomposed yet")
	}
	if !(float64(nt) < 10.0*math.Pow(float64(ne), 0.145)) {
		return fmt.Errorf("isin with %d test elements for %d elements sorts (searchsorted, which is not core ATen)", nt, ne)
	}
	if ne == 0 {
		return fmt.Errorf("isin of an empty tensor is not decomposed yet")
	}
	invert := n.BoolArg("invert", false)
	var res *ir.Value
	if len(t.Meta.Sizes) == 0 {
		res = b.Call("aten.eq.Tensor", T("self", x), T("other", t))
	} else {
		shape := append(sizesOf(x.Meta), repeat(1, len(t.Meta.Sizes))...)
		v := b.Call("aten.view.default", T("self", x), Is("size", shape...))
		dims := make([]int64, len(t.Meta.Sizes))
		for i := range dims {
			dims[i] = int64(-1 - i)
		}
		res = b.Call("aten.any.dims", T("self", b.Call("aten.eq.Tensor", T("self", v), T("other", t))), Is("dim", dims...))
	}
	if invert {
		res = b.Call("aten.bitwise_not.default", T("self", res))
	}
	return b.Replace(res)
}

// clamp_min.Tensor(x, m) = clamp.Tensor(x, min=m); clamp_max likewise.
func clampTensorSide(side string) rule {
	return func(b *Builder, n *ir.Node) error {
		x, bound := self(b, n), tensorArg(b, n, side)
		if side == "min" {
			return b.Replace(b.Call("aten.clamp.Tensor", T("self", x), T("min", bound)))
		}
		return b.Replace(b.Call("aten.clamp.Tensor", T("self", x), None("min"), T("max", bound)))
	}
}

// fill.Scalar(x, v) = full_like(x, v).
func fillScalar(b *Builder, n *ir.Node) error {
	return b.Replace(fullLike(b, self(b, n), argOf(b, n, "value"), nil, false))
}

// zero(x) = zeros_like(x) = full_like(x, 0 (False for bool), memory_format=preserve).
func zero(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	fill := I("", 0)
	if x.Meta.DType == ir.Bool {
		fill = Bo("", false)
	}
	return b.Replace(fullLike(b, x, fill, nil, true))
}

// masked_fill(x, mask, value tensor) = where(mask, value as x's dtype, x).
func maskedFillTensor(b *Builder, n *ir.Node) error {
	x, mask, value := self(b, n), tensorArg(b, n, "mask"), tensorArg(b, n, "value")
	if b.Err() != nil {
		return b.Err()
	}
	if len(value.Meta.Sizes) != 0 {
		return fmt.Errorf("masked_fill with a %d-d value", len(value.Meta.Sizes))
	}
	value = convert(b, value, x.Meta.DType)
	return b.Replace(b.Call("aten.where.self", T("condition", mask), T("self", value), T("other", x)))
}
