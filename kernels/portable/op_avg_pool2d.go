package portable

import (
	"fmt"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

var avgPool2dTypes = append(append([]executor.ScalarType{}, floatTypes...), executor.Int64)

func init() {
	register(executor.Kernel{Name: "aten::avg_pool2d.out", DTypes: avgPool2dTypes, Fn: avgPool2dOut})
}

// aten::avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
// bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *,
// Tensor(a!) out).
//
// As PyTorch: each window's sum is divided by divisor_override, or by the window's size
// clipped to the padded input (count_include_pad) or to the input. Float32, Float16 and
// BFloat16 accumulate in float32, Float64 in float64, Int64 in int64 with truncating division.
func avgPool2dOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxAvgPool2dOut(args)
	if err != nil {
		return err
	}
	return avgPool(a, 2)
}

// avgPool is avg_pool{n}d.out (n = 2 or 3), whose arguments match.
func avgPool(a avgPool2dOutArgs, n int) error {
	op := fmt.Sprintf("avg_pool%dd", n)
	in, includePad, out := a.Self, a.CountIncludePad, a.Out
	divisor, hasDivisor := a.DivisorOverride.Val, a.DivisorOverride.OK
	w, err := poolAvgWindowArgs(a, op, n)
	if err != nil {
		return err
	}
	if hasDivisor && divisor == 0 {
		return unbox.ArgError(6, "divisor_override", "divisor must be non-zero")
	}
	if err := poolDtype(in, op, avgPool2dTypes); err != nil {
		return err
	}
	if err := poolSameDtype(in, out, "out"); err != nil {
		return err
	}
	sizes, err := poolShape(in, &w)
	if err != nil {
		return err
	}
	if s := in.Sizes()[in.Dim()-n:]; n == 3 && (s[0] < w.k[0] || s[1] < w.k[1] || s[2] < w.k[2]) {
		// PyTorch's pool3d_shape_check for avg_pool3d (not max_pool3d), padding or not.
		return unbox.ArgError(0, "self", "input image (D: %d H: %d W: %d) smaller than kernel size (kD: %d kH: %d kW: %d)", s[0], s[1], s[2], w.k[0], w.k[1], w.k[2])
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	avgPoolRun(in, out, sizes, avgPoolGeom{w: w, includePad: includePad, divisor: int(divisor), hasDivisor: hasDivisor})
	return nil
}

// avgPoolRun averages in into out (already sized to sizes) with g's window, 2-d or 3-d.
func avgPoolRun(in, out *executor.Tensor, sizes []int, g avgPoolGeom) {
	g.volumes, g.id, g.ih, g.iw = poolVolumes(in.Sizes(), g.w.n)
	_, g.od, g.oh, g.ow = poolVolumes(sizes, g.w.n)
	twoD := g.w.n == 2
	g.w = g.w.as3d()
	switch in.ScalarType() {
	case executor.Float32:
		if in.IsContiguous() && out.IsContiguous() {
			avgPoolVolumes(&g, executor.Data[float32](in), executor.Data[float32](out), nil)
			return
		}
		fallthrough
	case executor.Float16, executor.BFloat16:
		// The official avg_pool2d sums and divides in c10::Half / c10::BFloat16, each step
		// rounded; avg_pool3d (etgo's own, beyond the official kernel set) sums in float32 and
		// rounds once, as PyTorch's CPU kernel does.
		var r func(float32) float32
		if twoD {
			r, _ = halfRounder(in.ScalarType())
		}
		y := make([]float32, out.Numel())
		avgPoolVolumes(&g, poolF32(loadF64(in)), y, r)
		storeF64(out, poolF64(y))
	case executor.Float64:
		y := make([]float64, out.Numel())
		avgPoolVolumes(&g, loadF64(in), y, nil)
		storeF64(out, y)
	default:
		y := make([]int64, out.Numel())
		avgPoolVolumes(&g, loadI64(in), y, nil)
		storeI64(out, y)
	}
}

type avgPoolGeom struct {
	w                               poolWindow // 3-d once run
	volumes, id, ih, iw, od, oh, ow int
	includePad, hasDivisor          bool
	divisor                         int
}

// avgPoolVolumes averages contiguous volumes x into y, summing each window plane by plane and
// row by row from its first value (the official kernel's order and start, so an all -0 window
// stays -0), in T or, with round non-nil, rounding each sum and the quotient by it (the half
// types' per-operation rounding; the divisor too).
func avgPoolVolumes[T float32 | float64 | int64](g *avgPoolGeom, x, y []T, round func(T) T) {
	kd, kh, kw, sd, sh, sw := g.w.k[0], g.w.k[1], g.w.k[2], g.w.s[0], g.w.s[1], g.w.s[2]
	pd, ph, pw := g.w.p[0], g.w.p[1], g.w.p[2]
	hw := g.ih * g.iw
	e := 0
	for p := 0; p < g.volumes; p++ {
		vol := x[p*g.id*hw : (p+1)*g.id*hw]
		for od := 0; od < g.od; od++ {
			d0 := od*sd - pd
			d1 := min(d0+kd, g.id+pd)
			for oh := 0; oh < g.oh; oh++ {
				h0 := oh*sh - ph
				h1 := min(h0+kh, g.ih+ph)
				for ow := 0; ow < g.ow; ow++ {
					w0 := ow*sw - pw
					w1 := min(w0+kw, g.iw+pw)
					poolSize := (d1 - d0) * (h1 - h0) * (w1 - w0)
					a0, a1 := max(d0, 0), min(d1, g.id)
					b0, b1, c0, c1 := max(h0, 0), min(h1, g.ih), max(w0, 0), min(w1, g.iw)
					if a0 >= a1 || b0 >= b1 || c0 >= c1 {
						y[e] = 0
						e++
						continue
					}
					div := (a1 - a0) * (b1 - b0) * (c1 - c0)
					switch {
					case g.hasDivisor:
						div = g.divisor
					case g.includePad:
						div = poolSize
					}
					var sum T
					first := true
					for d := a0; d < a1; d++ {
						for h := b0; h < b1; h++ {
							for _, v := range vol[d*hw+h*g.iw+c0 : d*hw+h*g.iw+c1] {
								switch {
								case first:
									sum, first = v, false
								case round != nil:
									sum = round(sum + v)
								default:
									sum += v
								}
							}
						}
					}
					if round != nil {
						y[e] = round(sum / round(T(div)))
					} else {
						y[e] = sum / T(div)
					}
					e++
				}
			}
		}
	}
}
