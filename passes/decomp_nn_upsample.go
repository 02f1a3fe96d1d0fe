package passes

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/ir"
)

// Upsampling, as torch's decomposition table writes it (torch/_decomp/decompositions.py):
// nearest (and nearest-exact) gathers with indices computed from a float arange; linear,
// bilinear and trilinear gather the 2^k corners and blend them dim by dim from the last; bicubic
// weighs 4×4 neighbours with the cubic convolution coefficients. upsample_nearest2d.vec and
// upsample_bilinear2d.vec are core ATen and stay whole; _upsample_bilinear2d_aa.vec becomes its
// .default overload, which the Edge verifier accepts as it is.

func init() {
	// The .default overloads of nearest upsampling and of trilinear stay as they are in the
	// official conversion (which then refuses them as outside core ATen); linear, bilinear and
	// bicubic .default are decomposed.
	registerRule(upsampleNearest(false), "aten.upsample_nearest1d.vec", "aten.upsample_nearest3d.vec")
	registerRule(upsampleNearest(true), "aten._upsample_nearest_exact1d.vec", "aten._upsample_nearest_exact2d.vec",
		"aten._upsample_nearest_exact3d.vec")
	registerRule(upsampleLinear, "aten.upsample_linear1d.vec", "aten.upsample_linear1d.default", "aten.upsample_bilinear2d.default",
		"aten.upsample_trilinear3d.vec")
	registerRule(upsampleBicubic, "aten.upsample_bicubic2d.vec", "aten.upsample_bicubic2d.default")
	registerRule(upsampleBilinearAAVec, "aten._upsample_bilinear2d_aa.vec")
}

// upsampleArgs reads an upsampling node, .vec (input, output_size or scale_factors) or .default
// (self, output_size, scales per dim): the input, the output's spatial sizes, and the scale of
// each dim (NaN when none is given), as upsample_compute_output_size computes them.
func upsampleArgs(n *ir.Node) (x *ir.Value, osize []int64, scales []float64, err error) {
	x = n.TensorArg("input")
	if x == nil {
		x = n.TensorArg("self")
	}
	if x == nil || x.Meta == nil {
		return nil, nil, nil, fmt.Errorf("%s: no input tensor", n.Target)
	}
	if !x.Meta.IsStatic() || len(x.Meta.Sizes) < 3 {
		return nil, nil, nil, fmt.Errorf("%s of %s: only static N×C×… inputs are decomposed", n.Target, x.Meta)
	}
	in := sizesOf(x.Meta)[2:]
	k := len(in)
	scales = make([]float64, k)
	for i := range scales {
		scales[i] = math.NaN()
	}
	if a := n.Arg("scale_factors"); a != nil && a.Kind == ir.ArgFloats {
		if len(a.Floats) != k {
			return nil, nil, nil, fmt.Errorf("%s: %d scale factors for %d dims", n.Target, len(a.Floats), k)
		}
		copy(scales, a.Floats)
		if o := n.IntsArg("output_size", nil); o != nil {
			return nil, nil, nil, fmt.Errorf("%s: both output_size and scale_factors", n.Target)
		}
		for i, s := range a.Floats {
			if s == math.Trunc(s) {
				osize = append(osize, in[i]*int64(s))
			} else {
				osize = append(osize, int64(math.Floor(float64(in[i])*s)))
			}
		}
		return x, osize, scales, nil
	}
	osize = n.IntsArg("output_size", nil)
	if len(osize) != k {
		return nil, nil, nil, fmt.Errorf("%s: output_size %v for %d dims", n.Target, osize, k)
	}
	names := map[int][]string{1: {"scales"}, 2: {"scales_h", "scales_w"}, 3: {"scales_d", "scales_h", "scales_w"}}[k]
	for i, name := range names {
		if a := n.Arg(name); a != nil && a.Kind == ir.ArgFloat {
			scales[i] = a.Float
		}
	}
	return x, osize, scales, nil
}

// opmathFloat refuses the inputs pw_cast_for_opmath would compute in another type (half
// precision), which these decompositions do not write out yet.
func opmathFloat(n *ir.Node, x *ir.Value) error {
	if dt := x.Meta.DType; dt != ir.Float32 && dt != ir.Float64 {
		return fmt.Errorf("%s of %s: only float32 and float64 inputs are decomposed", n.Target, dt)
	}
	return nil
}

// upsampleNearest: per spatial dim, (arange(osize, float32) + offset) * scale truncated to
// int64 (offset 0.5 for nearest-exact), unsqueezed to broadcast against the later dims; then one
// index of the input.
func upsampleNearest(exact bool) rule {
	return func(b *Builder, n *ir.Node) error {
		x, osize, scales, err := upsampleArgs(n)
		if err != nil {
			return err
		}
		in := sizesOf(x.Meta)[2:]
		offset := 0.0
		if exact {
			offset = 0.5
		}
		indices := []*ir.Value{nil, nil}
		for d, o := range osize {
			scale := float64(in[d]) / float64(o)
			if s := scales[d]; !math.IsNaN(s) && s > 0 {
				scale = float64(in[d]) / (float64(in[d]) * s)
			}
			idx := b.Call("aten.arange.start_step", I("start", 0), I("end", o), I("step", 1), Dt("dtype", ir.Float32), layoutStrided(), deviceCPU(),
				ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
			idx = b.Call("aten.add.Tensor", T("self", idx), F("other", offset))
			idx = b.Call("aten.mul.Tensor", T("self", idx), F("other", scale))
			idx = b.Call("aten._to_copy.default", T("self", idx), Dt("dtype", ir.Int64))
			for range len(osize) - 1 - d {
				idx = b.Call("aten.unsqueeze.default", T("self", idx), I("dim", -1))
			}
			indices = append(indices, idx)
		}
		return b.Replace(b.Call("aten.index.Tensor", T("self", x), OptTs("indices", indices...)))
	}
}

// upsampleScale is _compute_scale: the source step per output step (an int 0 for one output
// with align_corners, as Python computes it).
func upsampleScale(in, out int64, alignCorners bool, scale float64) ir.Arg {
	switch {
	case alignCorners && out > 1:
		return F("other", (float64(in)-1)/(float64(out)-1))
	case alignCorners:
		return I("other", 0)
	case !math.IsNaN(scale) && scale > 0:
		return F("other", 1/scale)
	}
	return F("other", float64(in)/float64(out))
}

// sourceIndex is _compute_source_index: scale·i with align_corners, else scale·(i+0.5)-0.5.
func sourceIndex(b *Builder, scale ir.Arg, i *ir.Value, alignCorners bool) *ir.Value {
	if alignCorners {
		return b.Call("aten.mul.Tensor", T("self", i), scale)
	}
	v := b.Call("aten.mul.Tensor", T("self", b.Call("aten.add.Tensor", T("self", i), F("other", 0.5))), scale)
	return b.Call("aten.sub.Tensor", T("self", v), F("other", 0.5))
}

// floatArange is torch.arange(n).to(dtype): an int64 arange converted.
func floatArange(b *Builder, n int64, dtype ir.DType) *ir.Value {
	i := b.Call("aten.arange.start_step", I("start", 0), I("end", n), I("step", 1), layoutStrided(), deviceCPU(),
		ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
	return b.Call("aten._to_copy.default", T("self", i), Dt("dtype", dtype))
}

// upsampleLinear is _upsample_linear: per dim the clamped source position (reshaped to broadcast
// against the later dims), its floor x and x+1 clamped to the input; every corner gathered; then
// from the last dim back, pairs blended as v1 + (v2 - v1)·clamp(x_f32 - x, 0, 1).
func upsampleLinear(b *Builder, n *ir.Node) error {
	x, osize, scales, err := upsampleArgs(n)
	if err != nil {
		return err
	}
	if err := opmathFloat(n, x); err != nil {
		return err
	}
	alignCorners := n.BoolArg("align_corners", false)
	dt := x.Meta.DType
	in := sizesOf(x.Meta)[2:]
	k := len(in)
	xf, xs, xp1 := make([]*ir.Value, k), make([]*ir.Value, k), make([]*ir.Value, k)
	for d := range k {
		i := floatArange(b, osize[d], dt)
		v := sourceIndex(b, upsampleScale(in[d], osize[d], alignCorners, scales[d]), i, alignCorners)
		v = b.Call("aten.clamp.default", T("self", v), F("min", 0))
		shape := append([]int64{osize[d]}, repeat(1, k-1-d)...)
		xf[d] = b.Call("aten.view.default", T("self", v), Is("size", shape...))
		xs[d] = b.Call("aten._to_copy.default", T("self", xf[d]), Dt("dtype", ir.Int64))
		xp1[d] = b.Call("aten.clamp.default", T("self", b.Call("aten.add.Tensor", T("self", xs[d]), I("other", 1))),
			None("min"), I("max", in[d]-1))
	}
	var vs []*ir.Value
	for corner := 0; corner < 1<<k; corner++ {
		idx := []*ir.Value{nil, nil}
		for d := range k {
			if corner>>(k-1-d)&1 == 0 {
				idx = append(idx, xs[d])
			} else {
				idx = append(idx, xp1[d])
			}
		}
		vs = append(vs, b.Call("aten.index.Tensor", T("self", x), OptTs("indices", idx...)))
	}
	for d := k - 1; d >= 0; d-- {
		w := b.Call("aten.sub.Tensor", T("self", xf[d]), T("other", xs[d]))
		w = b.Call("aten.clamp.default", T("self", w), F("min", 0), F("max", 1))
		var next []*ir.Value
		for j := 0; j+1 < len(vs); j += 2 {
			diff := b.Call("aten.sub.Tensor", T("self", vs[j+1]), T("other", vs[j]))
			next = append(next, b.Call("aten.add.Tensor", T("self", vs[j]), T("other", b.Call("aten.mul.Tensor", T("self", diff), T("other", w)))))
		}
		vs = next
	}
	return b.Replace(vs[0])
}

// cubicCoefficients is _upsample_get_cubic_coefficients on the CPU: the four weights of
// fractional offsets t, from stacks of (t, 1-t) and (t+1, 2-t) through the two cubic
// convolution polynomials (A = -0.75), unbound.
func cubicCoefficients(b *Builder, t *ir.Value) [4]*ir.Value {
	const a = -0.75
	stack := func(p, q *ir.Value) *ir.Value {
		return b.Call("aten.stack.default", Ts("tensors", p, q), I("dim", 0))
	}
	tt1 := stack(t, b.Call("aten.sub.Tensor", F("self", 1), T("other", t)))
	tt2 := stack(b.Call("aten.add.Tensor", T("self", t), F("other", 1)), b.Call("aten.sub.Tensor", F("self", 2), T("other", t)))
	mul := func(p *ir.Value, q ir.Arg) *ir.Value { return b.Call("aten.mul.Tensor", T("self", p), q) }
	// ((A·x - 5A)·x + 8A)·x - 4A
	w03 := mul(tt2, F("other", a))
	w03 = b.Call("aten.sub.Tensor", T("self", w03), F("other", 5*a))
	w03 = b.Call("aten.add.Tensor", T("self", mul(w03, T("other", tt2))), F("other", 8*a))
	w03 = b.Call("aten.sub.Tensor", T("self", mul(w03, T("other", tt2))), F("other", 4*a))
	// ((A+2)·x - (A+3))·x·x + 1
	w12 := b.Call("aten.sub.Tensor", T("self", mul(tt1, F("other", a+2))), F("other", a+3))
	w12 = mul(mul(w12, T("other", tt1)), T("other", tt1))
	w12 = b.Call("aten.add.Tensor", T("self", w12), I("other", 1))
	w03s, w12s := unbindRows(b, w03), unbindRows(b, w12)
	if b.Err() != nil {
		return [4]*ir.Value{}
	}
	return [4]*ir.Value{w03s[0], w12s[0], w12s[1], w03s[1]}
}

// sumProducts is _sum_tensors(c1 * c2 for …): products and sums interleaved, as reduce pulls
// them from the generator.
func sumProducts(b *Builder, xs []*ir.Value, ws [4]*ir.Value) *ir.Value {
	acc := b.Call("aten.mul.Tensor", T("self", xs[0]), T("other", ws[0]))
	for i := 1; i < len(xs); i++ {
		acc = b.Call("aten.add.Tensor", T("self", acc), T("other", b.Call("aten.mul.Tensor", T("self", xs[i]), T("other", ws[i]))))
	}
	return acc
}

// upsampleBicubic is upsample_bicubic2d_default: source positions and their floors, clamped
// fractional parts, the 4×4 neighbour offsets, the cubic weights of x then y, each neighbour
// gathered with clamped indices, rows interpolated along x and then along y.
func upsampleBicubic(b *Builder, n *ir.Node) error {
	x, osize, scales, err := upsampleArgs(n)
	if err != nil {
		return err
	}
	if err := opmathFloat(n, x); err != nil {
		return err
	}
	if len(osize) != 2 {
		return fmt.Errorf("%s of a %d-d input", n.Target, len(x.Meta.Sizes))
	}
	alignCorners := n.BoolArg("align_corners", false)
	dt := x.Meta.DType
	in := sizesOf(x.Meta)[2:]
	i := floatArange(b, osize[0], dt)
	j := floatArange(b, osize[1], dt)
	xf := sourceIndex(b, upsampleScale(in[1], osize[1], alignCorners, scales[1]), j, alignCorners)
	yf := sourceIndex(b, upsampleScale(in[0], osize[0], alignCorners, scales[0]), i, alignCorners)
	yf = b.Call("aten.unsqueeze.default", T("self", yf), I("dim", -1))
	xfl := b.Call("aten.floor.default", T("self", xf))
	yfl := b.Call("aten.floor.default", T("self", yf))
	frac := func(p, q *ir.Value) *ir.Value {
		return b.Call("aten.clamp.default", T("self", b.Call("aten.sub.Tensor", T("self", p), T("other", q))), F("min", 0), F("max", 1))
	}
	yscale := frac(yf, yfl)
	xscale := frac(xf, xfl)
	xi := b.Call("aten._to_copy.default", T("self", xfl), Dt("dtype", ir.Int64))
	yi := b.Call("aten._to_copy.default", T("self", yfl), Dt("dtype", ir.Int64))
	offsets := func(v *ir.Value) [4]*ir.Value {
		return [4]*ir.Value{b.Call("aten.sub.Tensor", T("self", v), I("other", 1)), v,
			b.Call("aten.add.Tensor", T("self", v), I("other", 1)), b.Call("aten.add.Tensor", T("self", v), I("other", 2))}
	}
	ys := offsets(yi)
	xs := offsets(xi)
	wx := cubicCoefficients(b, xscale)
	wy := cubicCoefficients(b, yscale)
	var rows []*ir.Value
	for _, y := range ys {
		var src []*ir.Value
		for _, xo := range xs {
			yIdx := b.Call("aten.clamp.default", T("self", y), I("min", 0), I("max", in[0]-1))
			xIdx := b.Call("aten.clamp.default", T("self", xo), I("min", 0), I("max", in[1]-1))
			src = append(src, b.Call("aten.index.Tensor", T("self", x), OptTs("indices", nil, nil, yIdx, xIdx)))
		}
		rows = append(rows, sumProducts(b, src, wx))
	}
	return b.Replace(sumProducts(b, rows, wy))
}

// _upsample_bilinear2d_aa.vec is its .default overload with the output size computed and the
// scale factors, if any, passed per dim.
func upsampleBilinearAAVec(b *Builder, n *ir.Node) error {
	x, osize, scales, err := upsampleArgs(n)
	if err != nil {
		return err
	}
	scale := func(name string, s float64) ir.Arg {
		if math.IsNaN(s) {
			return None(name)
		}
		return F(name, s)
	}
	return b.Replace(b.Call("aten._upsample_bilinear2d_aa.default", T("self", x), Is("output_size", osize...),
		Bo("align_corners", n.BoolArg("align_corners", false)), scale("scales_h", scales[0]), scale("scales_w", scales[1])))
}
