package portable

import "github.com/etgo/etgo/runtime"

var avgPool2dTypes = append(append([]runtime.ScalarType{}, floatTypes...), runtime.Int64)

func init() {
	register(runtime.Kernel{Name: "aten::avg_pool2d.out", DTypes: avgPool2dTypes, Fn: avgPool2dOut})
}

// aten::avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
// bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *,
// Tensor(a!) out).
//
// As PyTorch: each window's sum is divided by divisor_override, or by the window's size
// clipped to the padded input (count_include_pad) or to the input. Float32, Float16 and
// BFloat16 accumulate in float32, Float64 in float64, Int64 in int64 with truncating division.
func avgPool2dOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 9); err != nil {
		return err
	}
	in, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	var w poolWindow
	if w.k, err = poolPair(args, 1, "kernel_size", "avg_pool2d", nil); err != nil {
		return err
	}
	if w.s, err = poolPair(args, 2, "stride", "avg_pool2d", w.k[:]); err != nil {
		return err
	}
	if w.p, err = poolPair(args, 3, "padding", "avg_pool2d", nil); err != nil {
		return err
	}
	w.d = [2]int{1, 1}
	if w.ceil, err = boolArg(args, 4, "ceil_mode"); err != nil {
		return err
	}
	includePad, err := boolArg(args, 5, "count_include_pad")
	if err != nil {
		return err
	}
	divisor, hasDivisor, err := optIntArg(args, 6, "divisor_override")
	if err != nil {
		return err
	}
	if hasDivisor && divisor == 0 {
		return argErr(6, "divisor_override", "divisor must be non-zero")
	}
	out, err := tensorArg(args, 7, "out")
	if err != nil {
		return err
	}
	if err := poolDtype(in, "avg_pool2d", avgPool2dTypes); err != nil {
		return err
	}
	if err := poolSameDtype(in, out, "out"); err != nil {
		return err
	}
	sizes, err := poolShape(in, &w)
	if err != nil {
		return err
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	g := avgPoolGeom{w: w, includePad: includePad, divisor: int(divisor), hasDivisor: hasDivisor}
	g.planes, g.ih, g.iw = poolPlanes(in.Sizes())
	_, g.oh, g.ow = poolPlanes(sizes)
	switch in.ScalarType() {
	case runtime.Float32:
		if in.IsContiguous() && out.IsContiguous() {
			avgPoolPlanes(&g, runtime.Data[float32](in), runtime.Data[float32](out))
			return nil
		}
		fallthrough
	case runtime.Float16, runtime.BFloat16:
		y := make([]float32, out.Numel())
		avgPoolPlanes(&g, poolF32(loadF64(in)), y)
		storeF64(out, poolF64(y))
	case runtime.Float64:
		y := make([]float64, out.Numel())
		avgPoolPlanes(&g, loadF64(in), y)
		storeF64(out, y)
	default:
		y := make([]int64, out.Numel())
		avgPoolPlanes(&g, loadI64(in), y)
		storeI64(out, y)
	}
	return nil
}

type avgPoolGeom struct {
	w                      poolWindow
	planes, ih, iw, oh, ow int
	includePad, hasDivisor bool
	divisor                int
}

// avgPoolPlanes averages contiguous planes x into y, summing each window row by row.
func avgPoolPlanes[T float32 | float64 | int64](g *avgPoolGeom, x, y []T) {
	kh, kw, sh, sw, ph, pw := g.w.k[0], g.w.k[1], g.w.s[0], g.w.s[1], g.w.p[0], g.w.p[1]
	e := 0
	for p := 0; p < g.planes; p++ {
		plane := x[p*g.ih*g.iw : (p+1)*g.ih*g.iw]
		for oh := 0; oh < g.oh; oh++ {
			h0 := oh*sh - ph
			h1 := min(h0+kh, g.ih+ph)
			for ow := 0; ow < g.ow; ow++ {
				w0 := ow*sw - pw
				w1 := min(w0+kw, g.iw+pw)
				poolSize := (h1 - h0) * (w1 - w0)
				a0, a1, b0, b1 := max(h0, 0), min(h1, g.ih), max(w0, 0), min(w1, g.iw)
				if a0 >= a1 || b0 >= b1 {
					y[e] = 0
					e++
					continue
				}
				div := (a1 - a0) * (b1 - b0)
				switch {
				case g.hasDivisor:
					div = g.divisor
				case g.includePad:
					div = poolSize
				}
				var sum T
				for h := a0; h < a1; h++ {
					for _, v := range plane[h*g.iw+b0 : h*g.iw+b1] {
						sum += v
					}
				}
				y[e] = sum / T(div)
				e++
			}
		}
	}
}
