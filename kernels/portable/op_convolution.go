package portable

import (
	"fmt"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::convolution.out", DTypes: realTypes, Fn: convolutionOut})
}

// aten::convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride,
// SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups,
// *, Tensor(a!) out).
//
// 1-D (input [N, C, L], weight [OC, C/groups, K]), 2-D (input [N, C, H, W], weight
// [OC, C/groups, KH, KW]) and 3-D (input [N, C, D, H, W], weight [OC, C/groups, KD, KH, KW])
// convolution with stride, padding, dilation and groups; transposed convolution takes weight
// [C, OC/groups, K...] and output_padding. stride, padding, dilation and output_padding hold
// one value per spatial dimension or one for all. The 3-D case goes beyond the official
// runtime, whose portable kernel accepts only 3-D and 4-D inputs ("Expect input tensor to be
// 3-D or 4-D"): it runs the video models (torchvision's r3d_18, mc3_18, r2plus1d_18, s3d,
// mvit) that the official runtime refuses at execute. input, weight and out
// share one dtype; bias (one value per output channel) may have any real dtype. Floating
// types compute in float32 (float64 for Float64), integral ones in int64, wrapped to the out
// type. input and weight must be in the default dim order.
func convolutionOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxConvolutionOut(args)
	if err != nil {
		return err
	}
	in, w, bias, stride, padding, dilation, transposed, outPadding, groups, out := u.Input, u.Weight, u.Bias, u.Stride, u.Padding, u.Dilation, u.Transposed, u.OutputPadding, u.Groups, u.Out

	g, err := convolutionGeometry(in, w, bias, stride, padding, dilation, transposed, outPadding, groups, 0)
	if err != nil {
		return err
	}
	if err := linalgSameDType([]*executor.Tensor{in, w, out}, []string{"input", "weight", "out"}); err != nil {
		return err
	}
	if !linalgSupported(in.ScalarType()) {
		return unbox.ArgError(0, "input", "dtype %s is not supported", executor.DTypeName(in.ScalarType()))
	}
	if bias != nil && !linalgSupported(bias.ScalarType()) {
		return unbox.ArgError(2, "bias", "dtype %s is not supported", executor.DTypeName(bias.ScalarType()))
	}
	if out.Dim() != in.Dim() {
		return unbox.ArgError(9, "out", "want a %d-D tensor like input, got %d-D sizes %v", in.Dim(), out.Dim(), out.Sizes())
	}
	sizes := append([]int{g.n, g.oc}, []int{g.od, g.oh, g.ow}[5-in.Dim():]...)
	if err := resize(out, sizes); err != nil {
		return err
	}
	if out.Numel() == 0 {
		return nil
	}
	if r, ok := halfRounder(out.ScalarType()); ok && g.d == 1 && g.kd == 1 && g.od == 1 {
		if g.transposed {
			convolutionTransposedHalf(g, in, w, bias, out, r)
		} else {
			convolutionHalf(g, in, w, bias, out, r)
		}
		return nil
	}
	switch linalgComputeType(out.ScalarType()) {
	case 32:
		convolutionRun[float32](g, in, w, bias, out)
	case 64:
		convolutionRun[float64](g, in, w, bias, out)
	default:
		convolutionRun[int64](g, in, w, bias, out)
	}
	return nil
}

// convolutionHalf is the official portable convolution (conv2d_impl) in float16 and bfloat16:
// per output element, from zero, each in-bounds tap in the kernel's order (input channel, then
// kernel row, then column) adds its product, the product and the sum each rounded to the half
// type by r (c10::Half / c10::BFloat16 arithmetic), and the bias last, rounded again.
func convolutionHalf(g *linalgConvGeom, in, w, bias, out *executor.Tensor, r func(float32) float32) {
	xs, ws := linalgView[float32](in), linalgView[float32](w)
	var bs []float32
	if bias != nil {
		bs = linalgView[float32](bias)
	}
	ov, flush := linalgOutput[float32](out, in, w, bias)
	cg, og := g.c/g.groups, g.oc/g.groups
	for b := range g.n {
		for o := range g.oc {
			c0 := (o / og) * cg
			for oy := range g.oh {
				for ox := range g.ow {
					var acc float32
					for ic := range cg {
						for ky := range g.kh {
							iy := oy*g.sh + ky*g.dh - g.ph
							if iy < 0 || iy >= g.h {
								continue
							}
							for kx := range g.kw {
								ix := ox*g.sw + kx*g.dw - g.pw
								if ix < 0 || ix >= g.w {
									continue
								}
								x := xs[((b*g.c+c0+ic)*g.h+iy)*g.w+ix]
								acc = r(acc + r(x*ws[((o*cg+ic)*g.kh+ky)*g.kw+kx]))
							}
						}
					}
					if bs != nil {
						acc = r(acc + r(bs[o])) // (load_bias converts to CTYPE first)
					}
					ov[((b*g.oc+o)*g.oh+oy)*g.ow+ox] = acc
				}
			}
		}
	}
	flush()
}

// convolutionTransposedHalf is the official portable transposed convolution in float16 and
// bfloat16: the output starts as the bias (converted to the half type) or zero; then per batch,
// output channel, input row, input column, input channel of the group, kernel row and column,
// the product of the input value and the tap is added to the output position it reaches, the
// product and the sum each rounded by r. Each output element so sums its contributions in that
// order, which float32 accumulation does not reproduce.
func convolutionTransposedHalf(g *linalgConvGeom, in, w, bias, out *executor.Tensor, r func(float32) float32) {
	xs, ws := linalgView[float32](in), linalgView[float32](w)
	ov, flush := linalgOutput[float32](out, in, w, bias)
	plane := g.oh * g.ow
	if bias != nil {
		bs := linalgView[float32](bias)
		for i := range ov {
			ov[i] = r(bs[(i/plane)%g.oc])
		}
	} else {
		clear(ov)
	}
	cg, og := g.c/g.groups, g.oc/g.groups
	for b := range g.n {
		for o := range g.oc {
			grp := o / og
			dst := ov[(b*g.oc+o)*plane:][:plane]
			for iy := range g.h {
				for ix := range g.w {
					for ic := grp * cg; ic < (grp+1)*cg; ic++ {
						x := xs[((b*g.c+ic)*g.h+iy)*g.w+ix]
						wk := ws[(ic*og+o-grp*og)*g.kh*g.kw:][:g.kh*g.kw]
						for ky := range g.kh {
							oy := iy*g.sh + ky*g.dh - g.ph
							if oy < 0 || oy >= g.oh {
								continue
							}
							for kx := range g.kw {
								ox := ix*g.sw + kx*g.dw - g.pw
								if ox < 0 || ox >= g.ow {
									continue
								}
								e := oy*g.ow + ox
								dst[e] = r(dst[e] + r(x*wk[ky*g.kw+kx]))
							}
						}
					}
				}
			}
		}
	}
	flush()
}

func convolutionRun[T linalgNum](g *linalgConvGeom, in, w, bias, out *executor.Tensor) {
	var bv []T
	if bias != nil {
		bv = linalgView[T](bias)
	}
	ov, flush := linalgOutput[T](out, in, w, bias)
	linalgConv(g, linalgView[T](in), linalgView[T](w), bv, ov)
	flush()
}

// convolutionGeometry validates the convolution's arguments and derives its geometry, naming what is
// wrong; shift is added to the argument indices in errors (1 when input is argument 1).
func convolutionGeometry(in, w, bias *executor.Tensor, stride, padding, dilation []int64, transposed bool, outPadding []int64, groups int64, shift int) (*linalgConvGeom, error) {
	rank := in.Dim()
	if rank < 3 || rank > 5 {
		return nil, unbox.ArgError(0+shift, "input", "want a 3-D [N, C, L], 4-D [N, C, H, W] or 5-D [N, C, D, H, W] tensor, got %d-D sizes %v", rank, in.Sizes())
	}
	if w.Dim() != rank {
		return nil, unbox.ArgError(1+shift, "weight", "want a %d-D tensor like input, got %d-D sizes %v", rank, w.Dim(), w.Sizes())
	}
	if err := linalgWantRowMajor(in, shift, "input"); err != nil {
		return nil, err
	}
	if err := linalgWantRowMajor(w, 1+shift, "weight"); err != nil {
		return nil, err
	}
	spatial := rank - 2
	// param holds one value per spatial dimension, D, H, W, right-aligned: a 2-D
	// convolution's [H, W] at [1] and [2], a 1-D one's W at [2]; the dimensions the
	// convolution lacks get 1 (stride, dilation) or 0 (padding, output padding).
	param := func(i int, name string, l []int64, minVal int64) ([3]int, error) {
		if len(l) != 1 && len(l) != spatial {
			return [3]int{}, unbox.ArgError(i+shift, name, "want 1 or %d values, got %d", spatial, len(l))
		}
		v := [3]int{int(max(minVal, 0)), int(max(minVal, 0)), int(max(minVal, 0))}
		for d := range spatial {
			x := l[min(d, len(l)-1)]
			if x < minVal || x > 1<<31 {
				return [3]int{}, unbox.ArgError(i+shift, name, "value %d out of range (minimum %d)", x, minVal)
			}
			v[3-spatial+d] = int(x)
		}
		return v, nil
	}
	s, err := param(3, "stride", stride, 1)
	if err != nil {
		return nil, err
	}
	p, err := param(4, "padding", padding, 0)
	if err != nil {
		return nil, err
	}
	d, err := param(5, "dilation", dilation, 1)
	if err != nil {
		return nil, err
	}
	var op [3]int
	if transposed {
		if op, err = param(7, "output_padding", outPadding, 0); err != nil {
			return nil, err
		}
		for k := 3 - spatial; k < 3; k++ {
			if op[k] >= s[k] && op[k] >= d[k] {
				return nil, unbox.ArgError(7+shift, "output_padding", "%d must be smaller than either stride (%d) or dilation (%d)", op[k], s[k], d[k])
			}
		}
	}
	if groups < 1 {
		return nil, unbox.ArgError(8+shift, "groups", "want a positive number, got %d", groups)
	}
	is, ws := in.Sizes(), w.Sizes()
	gr := int(min(groups, 1<<31))
	if ws[0] < gr || ws[0]%gr != 0 {
		return nil, unbox.ArgError(1+shift, "weight", "size(0) = %d is not a positive multiple of groups = %d", ws[0], gr)
	}
	// Sizes right-aligned as the parameters: [D, H, W], 1 where the convolution has fewer.
	var ispat, kspat [3]int
	for k := range 3 {
		ispat[k], kspat[k] = 1, 1
		if j := k - 3 + rank; j >= 2 {
			ispat[k], kspat[k] = is[j], ws[j]
		}
	}
	g := &linalgConvGeom{n: is[0], c: is[1], d: ispat[0], h: ispat[1], w: ispat[2], kd: kspat[0], kh: kspat[1], kw: kspat[2],
		sd: s[0], sh: s[1], sw: s[2], pd: p[0], ph: p[1], pw: p[2], dd: d[0], dh: d[1], dw: d[2], groups: gr, transposed: transposed}
	if !transposed {
		if is[1] != gr*ws[1] {
			return nil, unbox.ArgError(0+shift, "input", "has %d channels; weight %v with groups = %d expects %d", is[1], ws, gr, gr*ws[1])
		}
		g.oc = ws[0]
	} else {
		if is[1] != ws[0] {
			return nil, unbox.ArgError(0+shift, "input", "has %d channels; a transposed convolution's weight %v expects %d (its size(0))", is[1], ws, ws[0])
		}
		g.oc = gr * ws[1]
	}
	if is[1] == 0 {
		g.oc = 0 // as PyTorch and ExecuTorch: no input channels, no output channels
	}
	if bias != nil {
		if bias.Dim() != 1 || bias.Size(0) != g.oc {
			return nil, unbox.ArgError(2+shift, "bias", "sizes %v; want [%d], one value per output channel", bias.Sizes(), g.oc)
		}
	}
	outSize := func(in, k, s, p, d, op int) int {
		if transposed {
			return (in-1)*s - 2*p + d*(k-1) + op + 1
		}
		span := in + 2*p - d*(k-1) - 1
		if span < 0 {
			return 0
		}
		return span/s + 1
	}
	g.od = outSize(g.d, g.kd, g.sd, g.pd, g.dd, op[0])
	g.oh = outSize(g.h, g.kh, g.sh, g.ph, g.dh, op[1])
	g.ow = outSize(g.w, g.kw, g.sw, g.pw, g.dw, op[2])
	if g.od < 1 || g.oh < 1 || g.ow < 1 || g.kd < 1 || g.kh < 1 || g.kw < 1 {
		spat := is[2:]
		return nil, fmt.Errorf("%w: input spatial sizes %v with kernel %v, stride %v, padding %v, dilation %v give output sizes %v; each must be at least 1",
			executor.ErrInvalidArgument, spat, ws[2:], s[3-spatial:], p[3-spatial:], d[3-spatial:], []int{g.od, g.oh, g.ow}[3-spatial:])
	}
	return g, nil
}
