package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::grid_sampler_2d.out", DTypes: floatTypes, Fn: gridSampler2dOut})
}

// aten::grid_sampler_2d.out(Tensor input, Tensor grid, int interpolation_mode,
// int padding_mode, bool align_corners, *, Tensor(a!) out).
//
// Samples an [N,C,H,W] input at the normalized (x, y) points of an [N,Ho,Wo,2] grid of the
// same dtype, writing [N,C,Ho,Wo]. x = -1 and 1 are the left and right edges of the input
// (the centres of the edge pixels with align_corners). interpolation_mode is 0 bilinear,
// 1 nearest (round half to even), 2 bicubic (A = -0.75); padding_mode is 0 zeros (points
// outside read 0), 1 border (clamped to the edge), 2 reflection (mirrored about the edges).
//
// Arithmetic follows ExecuTorch's portable kernel: bilinear in float32 for Float16 and
// BFloat16 (float64 for Float64), nearest and bicubic in the input's own precision, rounding
// after every operation. ExecuTorch also accepts integer inputs and grids, computing in
// integer arithmetic; etgo refuses them (a grid of integers can only address the corners
// and centre). Eager PyTorch refuses empty spatial dims, and so does etgo (ExecuTorch's kernel
// would read outside an empty input in border mode).
func gridSampler2dOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxGridSampler2dOut(args)
	if err != nil {
		return err
	}
	in, grid, mode, padMode, align, out := u.Input, u.Grid, u.InterpolationMode, u.PaddingMode, u.AlignCorners, u.Out
	if mode < 0 || mode > 2 {
		return unbox.ArgError(2, "interpolation_mode", "want 0 (bilinear), 1 (nearest) or 2 (bicubic), got %d", mode)
	}
	if padMode < 0 || padMode > 2 {
		return unbox.ArgError(3, "padding_mode", "want 0 (zeros), 1 (border) or 2 (reflection), got %d", padMode)
	}
	s, gs := in.Sizes(), grid.Sizes()
	if len(s) != 4 {
		return unbox.ArgError(0, "input", "must be 4D [N,C,H,W], got sizes %v", s)
	}
	if s[2] == 0 || s[3] == 0 {
		return unbox.ArgError(0, "input", "expected non-empty spatial dimensions, got sizes %v", s)
	}
	if len(gs) != 4 || gs[3] != 2 {
		return unbox.ArgError(1, "grid", "must be 4D [N,H_out,W_out,2], got sizes %v", gs)
	}
	if gs[0] != s[0] {
		return unbox.ArgError(1, "grid", "batch size %d differs from the input's %d", gs[0], s[0])
	}
	dt := in.ScalarType()
	if !isFloat(dt) {
		return unbox.ArgError(0, "input", "grid_sampler_2d supports floating dtypes, got %s", executor.DTypeName(dt))
	}
	if err := reduceSameDtype(grid, dt, 1, "grid"); err != nil {
		return err
	}
	if err := poolSameDtype(in, out, "out"); err != nil {
		return err
	}
	if err := resize(out, []int{s[0], s[1], gs[1], gs[2]}); err != nil {
		return err
	}
	g := gridSampler{h: s[2], w: s[3], pad: int(padMode), align: align, r: func(v float64) float64 { return roundTo(dt, v) }}
	if mode == 0 && dt != executor.Float64 {
		g.r = func(v float64) float64 { return float64(float32(v)) }
	}
	x, gv := loadF64(in), loadF64(grid)
	y := make([]float64, out.Numel())
	n, c, plane, pts := s[0], s[1], s[2]*s[3], gs[1]*gs[2]
	e := 0
	for b := 0; b < n; b++ {
		for ch := 0; ch < c; ch++ {
			img := x[(b*c+ch)*plane : (b*c+ch+1)*plane]
			for p := 0; p < pts; p++ {
				gx, gy := gv[2*(b*pts+p)], gv[2*(b*pts+p)+1]
				switch mode {
				case 0:
					y[e] = g.bilinear(img, gx, gy)
				case 1:
					y[e] = g.nearest(img, gx, gy)
				default:
					y[e] = g.bicubic(img, gx, gy)
				}
				e++
			}
		}
	}
	storeF64(out, y)
	return nil
}

// gridSampler samples one h×w plane; r rounds to the precision of the arithmetic.
type gridSampler struct {
	h, w  int
	pad   int // 0 zeros, 1 border, 2 reflection
	align bool
	r     func(float64) float64
}

// gridFloor is floor(v) as an int, with NaN and huge values mapped outside any plane (planes
// are far smaller than 2^30, which also fits a 32-bit int).
func gridFloor(v float64) int {
	if !(v > -1<<30 && v < 1<<30) {
		return -1 << 30
	}
	return int(math.Floor(v))
}

// gridClipIndex clamps an index to [0, size).
func gridClipIndex(i, size int) int { return min(max(i, 0), size-1) }

// unnormalize maps a grid coordinate to pixel space.
func (g *gridSampler) unnormalize(v float64, size int) float64 {
	r := g.r
	if g.align {
		return r(r(r(v+1)/2) * r(float64(size-1)))
	}
	return r(r(r(r(v+1)*r(float64(size)))-1) / 2)
}

// clip is ExecuTorch's clip_coordinates: min(size-1, max(v, 0)), NaN giving size-1.
func (g *gridSampler) clip(v float64, size int) float64 {
	if v < 0 {
		v = 0
	}
	if hi := float64(size - 1); !(v < hi) {
		v = hi
	}
	return v
}

// reflect mirrors v into [twiceLow/2, twiceHigh/2].
func (g *gridSampler) reflect(v float64, twiceLow, twiceHigh int) float64 {
	if twiceLow == twiceHigh {
		return 0
	}
	r := g.r
	lo, span := r(float64(twiceLow)/2), r(float64(twiceHigh-twiceLow)/2)
	v = math.Abs(r(v - lo))
	extra := math.Mod(v, span)
	if flips := math.Floor(r(v / span)); math.IsInf(flips, 0) || math.Mod(flips, 2) == 0 {
		return r(extra + lo)
	}
	return r(r(span-extra) + lo)
}

// reflectPad applies reflection padding to a pixel coordinate.
func (g *gridSampler) reflectPad(v float64, size int) float64 {
	if g.align {
		return g.reflect(v, 0, 2*(size-1))
	}
	return g.reflect(v, -1, 2*size-1)
}

// source is grid_sampler_compute_source_index.
func (g *gridSampler) source(v float64, size int) float64 {
	v = g.unnormalize(v, size)
	switch g.pad {
	case 1:
		v = g.clip(v, size)
	case 2:
		v = g.clip(g.reflectPad(v, size), size)
	}
	return v
}

func (g *gridSampler) inside(iy, ix int) bool { return iy >= 0 && iy < g.h && ix >= 0 && ix < g.w }

func (g *gridSampler) bilinear(img []float64, gx, gy float64) float64 {
	r := g.r
	ix, iy := g.source(gx, g.w), g.source(gy, g.h)
	x0, y0 := gridFloor(ix), gridFloor(iy)
	x1, y1 := x0+1, y0+1
	fx0, fy0, fx1, fy1 := r(float64(x0)), r(float64(y0)), r(float64(x1)), r(float64(y1))
	wts := [4]float64{
		r(r(fx1-ix) * r(fy1-iy)), // nw
		r(r(ix-fx0) * r(fy1-iy)), // ne
		r(r(fx1-ix) * r(iy-fy0)), // sw
		r(r(ix-fx0) * r(iy-fy0)), // se
	}
	ys, xs := [4]int{y0, y0, y1, y1}, [4]int{x0, x1, x0, x1}
	v := 0.0
	for k := range wts {
		if g.pad == 0 {
			if !g.inside(ys[k], xs[k]) {
				continue
			}
		} else {
			ys[k], xs[k] = gridClipIndex(ys[k], g.h), gridClipIndex(xs[k], g.w)
		}
		v = r(v + r(img[ys[k]*g.w+xs[k]]*wts[k]))
	}
	return v
}

func (g *gridSampler) nearest(img []float64, gx, gy float64) float64 {
	ix, iy := g.source(gx, g.w), g.source(gy, g.h)
	xn, yn := gridFloor(math.RoundToEven(ix)), gridFloor(math.RoundToEven(iy))
	if g.pad == 0 {
		if !g.inside(yn, xn) {
			return 0
		}
	} else {
		yn, xn = gridClipIndex(yn, g.h), gridClipIndex(xn, g.w)
	}
	return img[yn*g.w+xn]
}

// tap reads a bicubic tap at integer pixel (iy, ix) with the padding mode applied.
func (g *gridSampler) tap(img []float64, iy, ix int) float64 {
	switch g.pad {
	case 0:
		if !g.inside(iy, ix) {
			return 0
		}
	case 1:
		iy, ix = gridClipIndex(iy, g.h), gridClipIndex(ix, g.w)
	default:
		iy = int(g.clip(g.reflectPad(g.r(float64(iy)), g.h), g.h))
		ix = int(g.clip(g.reflectPad(g.r(float64(ix)), g.w), g.w))
	}
	return img[iy*g.w+ix]
}

// cubic is cubic_interp1d with A = -0.75, rounding every operation.
func (g *gridSampler) cubic(p [4]float64, t float64) float64 {
	r := g.r
	const a = -0.75
	c1 := func(x float64) float64 { return r(r(r(r(r((a+2)*x)-(a+3))*x)*x) + 1) }
	c2 := func(x float64) float64 { return r(r(r(r(r(r(a*x)-5*a)*x)+8*a)*x) - 4*a) }
	x2 := r(1 - t)
	co := [4]float64{c2(r(t + 1)), c1(t), c1(x2), c2(r(x2 + 1))}
	v := r(p[0] * co[0])
	for k := 1; k < 4; k++ {
		v = r(v + r(p[k]*co[k]))
	}
	return v
}

func (g *gridSampler) bicubic(img []float64, gx, gy float64) float64 {
	ix, iy := g.unnormalize(gx, g.w), g.unnormalize(gy, g.h)
	x0, y0 := gridFloor(ix), gridFloor(iy)
	tx, ty := g.r(ix-g.r(float64(x0))), g.r(iy-g.r(float64(y0)))
	var rows [4]float64
	for dy := -1; dy <= 2; dy++ {
		var p [4]float64
		for dx := -1; dx <= 2; dx++ {
			p[dx+1] = g.tap(img, y0+dy, x0+dx)
		}
		rows[dy+1] = g.cubic(p, tx)
	}
	return g.cubic(rows, ty)
}
