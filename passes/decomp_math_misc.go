package passes

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/ir"
)

// Further math: outer-product updates, cross products, finite differences and integrals,
// renormalisation, and the softmax/dropout helpers, as torch's decompositions (addr, linalg_cross,
// renorm, _safe_softmax, _softmax_backward_data, native_dropout_backward, bernoulli) or their
// ATen composites (cross, diff, trapezoid, cumulative_trapezoid, gradient) write them.

func init() {
	registerRule(addr, "aten.addr.default")
	registerRule(crossRule, "aten.cross.default", "aten.linalg_cross.default")
	registerRule(diff, "aten.diff.default")
	registerRule(renorm, "aten.renorm.default")
	registerRule(trapezoid(false), "aten.trapezoid.x", "aten.trapz.x", "aten.trapezoid.dx", "aten.trapz.dx")
	registerRule(trapezoid(true), "aten.cumulative_trapezoid.x", "aten.cumulative_trapezoid.dx")
	registerRule(gradient, "aten.gradient.scalarint", "aten.gradient.scalarrayint", "aten.gradient.array",
		"aten.gradient.scalararray", "aten.gradient.scalarrayarray")
	registerRule(safeSoftmax, "aten._safe_softmax.default")
	registerRule(softmaxBackward, "aten._softmax_backward_data.default")
	registerRule(dropoutBackward, "aten.native_dropout_backward.default")
	registerRule(bernoulli, "aten.bernoulli.default")
}

// addr(x, v1, v2, beta, alpha) = beta · x + alpha · outer(v1, v2), x expanded to the outer
// product's shape first (its bool form is not decomposed).
func addr(b *Builder, n *ir.Node) error {
	x, v1, v2 := self(b, n), tensorArg(b, n, "vec1"), tensorArg(b, n, "vec2")
	if b.Err() != nil {
		return b.Err()
	}
	if len(v1.Meta.Sizes) != 1 || len(v2.Meta.Sizes) != 1 {
		return fmt.Errorf("addr of %s and %s", v1.Meta, v2.Meta)
	}
	compute, result := elementwiseTypes(promoteDefault, T("a", x), T("b", v1), T("c", v2))
	if compute == ir.Bool {
		return fmt.Errorf("addr of bool tensors is not decomposed yet")
	}
	vs := promoteOperandsTo(b, compute, x, v1, v2)
	x, v1, v2 = vs[0], vs[1], vs[2]
	x = b.Call("aten.expand.default", T("self", x), staticSizeArg(b, "size", []ir.Dim{v1.Meta.Sizes[0], v2.Meta.Sizes[0]}))
	beta, alpha := numberArg(n, "beta", "other", I("", 1)), numberArg(n, "alpha", "other", I("", 1))
	var scaled *ir.Value
	if n.ScalarArg("beta", 1) != 0 {
		scaled = b.Call("aten.mul.Tensor", T("self", x), beta)
	}
	outer := b.Call("aten.mul.Tensor", T("self", b.Call("aten.view.default", T("self", v1), staticSizeArg(b, "size", []ir.Dim{v1.Meta.Sizes[0], {Size: 1}}))), T("other", v2))
	outer = b.Call("aten.mul.Tensor", T("self", outer), alpha)
	if scaled == nil {
		return b.Replace(convert(b, outer, result))
	}
	return b.Replace(convert(b, b.Call("aten.add.Tensor", T("self", scaled), T("other", outer)), result))
}

// cross (ATen picks the first dim of size 3 when none is given) = linalg_cross: a[(i+1)%3] ·
// b[(i+2)%3] - a[(i+2)%3] · b[(i+1)%3] along dim, the operands broadcast first.
func crossRule(b *Builder, n *ir.Node) error {
	x, y := self(b, n), tensorArg(b, n, "other")
	if b.Err() != nil {
		return b.Err()
	}
	rank := len(x.Meta.Sizes)
	var d int64 = -1
	if a := n.Arg("dim"); a != nil && a.Kind == ir.ArgInt {
		d = a.Int
	} else if n.Target == "aten.cross.default" {
		d = -2
		for i, s := range x.Meta.Sizes {
			if s.IsStatic() && s.Size == 3 {
				d = int64(i)
				break
			}
		}
		if d == -2 {
			return fmt.Errorf("cross: no dimension of size 3 in %s", x.Meta)
		}
	}
	if len(y.Meta.Sizes) != rank {
		return fmt.Errorf("cross of ranks %d and %d", rank, len(y.Meta.Sizes))
	}
	vs, result := opmathCast(b, x, y)
	vs = broadcastAll(b, vs...)
	x, y = vs[0], vs[1]
	k, err := normDim(d, rank)
	if err != nil {
		return err
	}
	dim := int64(k)
	idx := arangeOf(b, 3)
	pick := func(v *ir.Value, shift int64) *ir.Value {
		i := b.Call("aten.remainder.Scalar", T("self", b.Call("aten.add.Tensor", T("self", idx), I("other", shift))), I("other", 3))
		return b.Call("aten.index_select.default", T("self", v), I("dim", dim), T("index", i))
	}
	l := b.Call("aten.mul.Tensor", T("self", pick(x, 1)), T("other", pick(y, 2)))
	r := b.Call("aten.mul.Tensor", T("self", pick(x, 2)), T("other", pick(y, 1)))
	return b.Replace(convert(b, b.Call("aten.sub.Tensor", T("self", l), T("other", r)), result))
}

// broadcastAll is torch.broadcast_tensors as its decomposition writes it: every tensor whose
// shape is not the common one expanded to it (0-d tensors included).
func broadcastAll(b *Builder, vs ...*ir.Value) []*ir.Value {
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
		if !sameDims(v.Meta.Sizes, common) {
			out[i] = b.Call("aten.expand.default", T("self", v), staticSizeArg(b, "size", common))
		}
	}
	return out
}

// diff (ATen): n times the difference of neighbours along dim (logical_xor for bool); n 0 is
// a copy into zeros_like.
func diff(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	order := n.IntArg("n", 1)
	dim := n.IntArg("dim", -1)
	pre, app := n.TensorArg("prepend"), n.TensorArg("append")
	if order == 0 {
		fill := I("", 0)
		if x.Meta.DType == ir.Bool {
			fill = Bo("", false)
		}
		z := fullLike(b, x, fill, nil, true)
		return b.Replace(b.Call("aten.copy.default", T("self", z), T("src", x)))
	}
	if pre != nil || app != nil {
		parts := []*ir.Value{x}
		if pre != nil {
			parts = append([]*ir.Value{pre}, parts...)
		}
		if app != nil {
			parts = append(parts, app)
		}
		x = b.Call("aten.cat.default", Ts("tensors", parts...), I("dim", dim))
		if b.Err() != nil {
			return b.Err()
		}
	}
	k, err := normDim(dim, len(x.Meta.Sizes))
	if err != nil {
		return err
	}
	size := x.Meta.Sizes[k]
	if !size.IsStatic() {
		return fmt.Errorf("diff along a symbolic dim")
	}
	outLen := size.Size - 1
	order = min(order, size.Size)
	r := x
	for i := int64(0); i < order; i++ {
		lo := b.Call("aten.slice.Tensor", T("self", r), I("dim", dim), I("start", 0), I("end", outLen))
		hi := b.Call("aten.slice.Tensor", T("self", r), I("dim", dim), I("start", 1), I("end", 1+outLen))
		if x.Meta.DType == ir.Bool {
			r = b.Call("aten.logical_xor.default", T("self", hi), T("other", lo))
		} else {
			r = b.Call("aten.sub.Tensor", T("self", hi), T("other", lo))
		}
		outLen--
	}
	return b.Replace(r)
}

// renorm(x, p, dim, maxnorm) = x · where(‖x‖ > maxnorm, maxnorm / (‖x‖ + 1e-7), 1), the p-norm
// over every dim but dim (in float32 for half inputs).
func renorm(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	rank := len(x.Meta.Sizes)
	if rank < 2 {
		return fmt.Errorf("renorm of a %d-d tensor", rank)
	}
	k, err := normDim(n.IntArg("dim", 0), rank)
	if err != nil {
		return err
	}
	var dims []int64
	for i := 0; i < rank; i++ {
		if i != k {
			dims = append(dims, int64(i))
		}
	}
	ord, p := ordArg(n, I("ord", 2))
	if a := n.Arg("p"); isNumber(a) {
		ord = Renamed(*a, "ord")
		p = n.ScalarArg("p", 2)
	}
	acc := computationType(x.Meta.DType)
	var dtype *ir.DType
	if acc != x.Meta.DType {
		dtype = &acc
	}
	norm, err := vectorNormOf(b, x, ord, p, Is("dim", dims...), true, dtype)
	if err != nil {
		return err
	}
	maxnorm := numberArg(n, "maxnorm", "other", I("", 1))
	big := b.Call("aten.gt.Scalar", T("self", norm), maxnorm)
	f := b.Call("aten.reciprocal.default", T("self", b.Call("aten.add.Tensor", T("self", norm), F("other", 1e-7))))
	f = b.Call("aten.mul.Tensor", T("self", f), maxnorm)
	f = where(b, big, T("", f), F("", 1))
	f = convert(b, f, x.Meta.DType)
	return b.Replace(b.Call("aten.mul.Tensor", T("self", x), T("other", f)))
}

// trapezoid / trapz / cumulative_trapezoid (ATen): with sample points x, Σ (y[:-1] + y[1:]) ·
// (x[1:] - x[:-1]) / 2 along dim (x viewed to broadcast); with a spacing dx, (Σ y - (y[0] +
// y[-1]) / 2) · dx, or for the cumulative form cumsum(dx / 2 · (y[:-1] + y[1:])).
func trapezoid(cumulative bool) rule {
	return func(b *Builder, n *ir.Node) error {
		y := tensorArg(b, n, "y")
		if b.Err() != nil {
			return b.Err()
		}
		rank := len(y.Meta.Sizes)
		dim := n.IntArg("dim", -1)
		slice := func(v *ir.Value, d int64, start int64, end *int64) *ir.Value {
			e := None("end")
			if end != nil {
				e = I("end", *end)
			}
			return b.Call("aten.slice.Tensor", T("self", v), I("dim", d), I("start", start), e)
		}
		minus1 := int64(-1)
		if y.Meta.DType == ir.Bool {
			return fmt.Errorf("%s of a bool tensor", n.Target)
		}
		x := n.TensorArg("x")
		if x == nil {
			// The spacing form: dim as given.
			k, err := normDim(dim, rank)
			if err != nil {
				return err
			}
			if s := y.Meta.Sizes[k]; !s.IsStatic() || (s.Size == 0 && !cumulative) {
				return fmt.Errorf("%s along an empty or symbolic dim is not decomposed yet", n.Target)
			}
			dx := n.ScalarArg("dx", 1)
			if cumulative {
				s := b.Call("aten.add.Tensor", T("self", slice(y, dim, 0, &minus1)), T("other", slice(y, dim, 1, nil)))
				s = b.Call("aten.mul.Scalar", T("self", s), F("other", dx/2))
				return b.Replace(b.Call("aten.cumsum.default", T("self", s), I("dim", dim)))
			}
			last := b.Call("aten.select.int", T("self", y), I("dim", dim), I("index", -1))
			first := b.Call("aten.select.int", T("self", y), I("dim", dim), I("index", 0))
			ends := b.Call("aten.mul.Scalar", T("self", b.Call("aten.add.Tensor", T("self", first), T("other", last))), F("other", 0.5))
			s := b.Call("aten.sub.Tensor", T("self", b.Call("aten.sum.dim_IntList", T("self", y), Is("dim", dim))), T("other", ends))
			return b.Replace(b.Call("aten.mul.Scalar", T("self", s), F("other", dx)))
		}
		k, err := normDim(dim, rank)
		if err != nil {
			return err
		}
		d := int64(k)
		if s := y.Meta.Sizes[k]; !s.IsStatic() || s.Size == 0 {
			return fmt.Errorf("%s along an empty or symbolic dim is not decomposed yet", n.Target)
		}
		if x.Meta.DType == ir.Bool {
			return fmt.Errorf("%s with bool sample points", n.Target)
		}
		xv := x
		switch xr := len(x.Meta.Sizes); {
		case xr == 1:
			shape := make([]ir.Dim, rank)
			for i := range shape {
				shape[i] = ir.Dim{Size: 1}
			}
			shape[k] = x.Meta.Sizes[0]
			xv = b.Call("aten.view.default", T("self", x), staticSizeArg(b, "size", shape))
		case xr < rank:
			shape := make([]ir.Dim, rank)
			for i := range shape {
				shape[i] = ir.Dim{Size: 1}
			}
			copy(shape[rank-xr:], x.Meta.Sizes)
			xv = b.Call("aten.view.default", T("self", x), staticSizeArg(b, "size", shape))
		}
		xl := slice(xv, d, 0, &minus1)
		dx := b.Call("aten.sub.Tensor", T("self", slice(xv, d, 1, nil)), T("other", xl))
		left, right := slice(y, d, 0, &minus1), slice(y, d, 1, nil)
		s := b.Call("aten.mul.Tensor", T("self", b.Call("aten.add.Tensor", T("self", left), T("other", right))), T("other", dx))
		if cumulative {
			s = b.Call("aten.cumsum.default", T("self", s), I("dim", d))
		} else {
			s = b.Call("aten.sum.dim_IntList", T("self", s), Is("dim", d))
		}
		return b.Replace(b.Call("aten.div.Scalar", T("self", s), F("other", 2)))
	}
}

// gradient (ATen, scalar spacings): per dim, central differences / 2 in the interior and
// one-sided first- or second-order differences at both ends, concatenated along the dim.
func gradient(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	rank := len(x.Meta.Sizes)
	var dims []int64
	switch a := n.Arg("dim"); {
	case a != nil && a.Kind == ir.ArgInt:
		dims = []int64{a.Int}
	case a != nil && a.Kind == ir.ArgInts:
		dims = a.Ints
	default:
		for i := 0; i < rank; i++ {
			dims = append(dims, int64(i))
		}
	}
	spacing := make([]ir.Arg, len(dims))
	for i := range spacing {
		spacing[i] = F("other", 1)
	}
	switch a := n.Arg("spacing"); {
	case a == nil || a.Kind == ir.ArgNone:
	case isNumber(a):
		for i := range spacing {
			spacing[i] = Renamed(*a, "other")
		}
	case a.Kind == ir.ArgFloats && len(a.Floats) == len(dims):
		for i, f := range a.Floats {
			spacing[i] = F("other", f)
		}
	case a.Kind == ir.ArgInts && len(a.Ints) == len(dims):
		for i, k := range a.Ints {
			spacing[i] = I("other", k)
		}
	default:
		return fmt.Errorf("%s with spacing of %d entries for %d dims", n.Target, len(spacing), len(dims))
	}
	edge := n.IntArg("edge_order", 1)
	if edge != 1 && edge != 2 {
		return fmt.Errorf("gradient with edge_order %d", edge)
	}
	sl := func(d, start int64, end *int64) *ir.Value {
		e := None("end")
		if end != nil {
			e = I("end", *end)
		}
		return b.Call("aten.slice.Tensor", T("self", x), I("dim", d), I("start", start), e)
	}
	p := func(k int64) *int64 { return &k }
	scaled := func(d, start int64, end *int64, k ir.Arg) *ir.Value {
		return b.Call("aten.mul.Scalar", T("self", sl(d, start, end)), Renamed(k, "other"))
	}
	div := func(v *ir.Value, dx ir.Arg) *ir.Value { return b.Call("aten.div.Scalar", T("self", v), dx) }
	var out []*ir.Value
	for i, dim := range dims {
		k, err := normDim(dim, rank)
		if err != nil {
			return err
		}
		d := int64(k)
		if s := x.Meta.Sizes[k]; !s.IsStatic() || s.Size < edge+1 {
			return fmt.Errorf("gradient along a dim of size %s", s)
		}
		dx := spacing[i]
		lo := sl(d, 0, p(-2))
		center := div(b.Call("aten.sub.Tensor", T("self", sl(d, 2, nil)), T("other", lo)), dx)
		var pre, app *ir.Value
		if edge == 1 {
			a := sl(d, 0, p(1))
			pre = div(b.Call("aten.sub.Tensor", T("self", sl(d, 1, p(2))), T("other", a)), dx)
			a = sl(d, -2, p(-1))
			app = div(b.Call("aten.sub.Tensor", T("self", sl(d, -1, nil)), T("other", a)), dx)
		} else {
			c := scaled(d, 2, p(3), F("", 0.5))
			bb := scaled(d, 1, p(2), I("", 2))
			a := scaled(d, 0, p(1), F("", -1.5))
			pre = div(b.Call("aten.sub.Tensor", T("self", b.Call("aten.add.Tensor", T("self", a), T("other", bb))), T("other", c)), dx)
			c = scaled(d, -1, nil, F("", 1.5))
			bb = scaled(d, -2, p(-1), I("", 2))
			a = scaled(d, -3, p(-2), F("", 0.5))
			app = div(b.Call("aten.add.Tensor", T("self", b.Call("aten.sub.Tensor", T("self", a), T("other", bb))), T("other", c)), dx)
		}
		half := b.Call("aten.div.Scalar", T("self", center), I("other", 2))
		out = append(out, b.Call("aten.cat.default", Ts("tensors", pre, half, app), I("dim", d)))
	}
	return b.Replace(out...)
}

// _safe_softmax(x, dim, dtype) = where(all(x == -inf, dim), 0, softmax(x, dim, dtype)).
func safeSoftmax(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	dim := n.IntArg("dim", -1)
	in := x
	if d, ok := scalarTypeArg(n, "dtype"); ok && d != x.Meta.DType {
		// softmax's toType: the dtype with the input's layout and device.
		in = b.Call("aten._to_copy.default", T("self", x), Dt("dtype", d), layoutStrided(), deviceCPU())
	}
	out := b.Call("aten._softmax.default", T("self", in), I("dim", dim), Bo("half_to_float", false))
	masked := b.Call("aten.eq.Scalar", T("self", x), F("other", math.Inf(-1)))
	rows := b.Call("aten.all.dim", T("self", masked), I("dim", dim), Bo("keepdim", true))
	zeros := fullLike(b, out, I("", 0), nil, true)
	return b.Replace(b.Call("aten.where.self", T("condition", rows), T("self", zeros), T("other", out)))
}

// _softmax_backward_data(g, y, dim, input_dtype) = g·y - y · Σ(g·y, dim), converted to
// input_dtype when g's type differs.
func softmaxBackward(b *Builder, n *ir.Node) error {
	g, y := tensorArg(b, n, "grad_output"), tensorArg(b, n, "output")
	if b.Err() != nil {
		return b.Err()
	}
	inType, ok := scalarTypeArg(n, "input_dtype")
	if !ok {
		return fmt.Errorf("_softmax_backward_data without input_dtype")
	}
	orig := g.Meta.DType
	compute, _ := elementwiseTypes(promoteDefault, T("a", g), T("b", y))
	g, y = convert(b, g, compute), convert(b, y, compute)
	gy := b.Call("aten.mul.Tensor", T("self", g), T("other", y))
	s := b.Call("aten.sum.dim_IntList", T("self", gy), Is("dim", n.IntArg("dim", -1)), Bo("keepdim", true))
	r := b.Call("aten.sub.Tensor", T("self", gy), T("other", b.Call("aten.mul.Tensor", T("self", y), T("other", s))))
	if orig != inType {
		r = convert(b, r, inType)
	}
	return b.Replace(r)
}

// native_dropout_backward(g, mask, scale) = (g · (mask as g's type · scale)).clone() in g's
// memory format.
func dropoutBackward(b *Builder, n *ir.Node) error {
	g, mask := tensorArg(b, n, "grad_output"), tensorArg(b, n, "mask")
	if b.Err() != nil {
		return b.Err()
	}
	m := mask
	if mask.Meta.DType != g.Meta.DType {
		m = b.Call("aten._to_copy.default", T("self", mask), Dt("dtype", g.Meta.DType), layoutStrided(), deviceCPU())
	}
	m = b.Call("aten.mul.Tensor", T("self", m), numberArg(n, "scale", "other", F("", 1)))
	r := b.Call("aten.mul.Tensor", T("self", g), T("other", m))
	format := int64(memoryFormatContiguous)
	if len(g.Meta.Sizes) == 4 && hasLayout(b.st, g, memoryFormatChannelsLast) && !hasLayout(b.st, g, memoryFormatContiguous) {
		format = memoryFormatChannelsLast
	}
	return b.Replace(b.Call("aten.clone.default", T("self", r), ir.Arg{Name: "memory_format", Kind: ir.ArgMemoryFormat, Int: format, KwargOnly: true}))
}

// bernoulli(p) = (rand(p's size) < p) as p's type.
func bernoulli(b *Builder, n *ir.Node) error {
	p := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	if !p.Meta.IsStatic() {
		return fmt.Errorf("bernoulli of a symbolic shape")
	}
	r := b.Call("aten.rand.default", staticSizeArg(b, "size", p.Meta.Sizes), Dt("dtype", ir.Float32), deviceCPU(),
		ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
	return b.Replace(convert(b, b.Call("aten.lt.Tensor", T("self", r), T("other", p)), p.Meta.DType))
}
