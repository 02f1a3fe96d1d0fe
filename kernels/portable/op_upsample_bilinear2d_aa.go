package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::_upsample_bilinear2d_aa.out", DTypes: realTypes, Fn: upsampleBilinear2dAAOut})
}

// aten::_upsample_bilinear2d_aa.out(Tensor self, SymInt[2] output_size, bool align_corners,
// float? scales_h=None, float? scales_w=None, *, Tensor(a!) out).
//
// Anti-aliased bilinear resampling of an [N,C,H,W] input to output_size: output index o of a
// dimension is centred at scale*(o+0.5) in the input, where scale is PyTorch's
// area_pixel_compute_scale (align_corners: (in-1)/(out-1); else 1/scales_x when given and
// positive, in/out otherwise), and averages the inputs within max(scale, 1) of the centre
// with triangle weights 1-|x|, x = (i - centre + 0.5)/max(scale, 1), normalized to sum 1.
// The centre ignores align_corners, as in PyTorch's antialias path.
//
// As in ExecuTorch's portable kernel (whose semantics etgo follows where eager PyTorch
// differs): the scales are used only when both are given; the weights are computed in float32
// for every dtype; each output sums in[h][w]*wh*ww over the window directly in the input's
// type, so an integer input truncates at every step (eager PyTorch rounds its uint8 result
// and refuses other integer types) and Float16/BFloat16 round at every step.
func upsampleBilinear2dAAOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxUpsampleBilinear2dAaOut(args)
	if err != nil {
		return err
	}
	in, osz, align, sh, hasH, sw, hasW, out := u.Self, u.OutputSize, u.AlignCorners, u.ScalesH.Val, u.ScalesH.OK, u.ScalesW.Val, u.ScalesW.OK, u.Out
	s := in.Sizes()
	if len(s) != 4 {
		return unbox.ArgError(0, "self", "expected a 4D [N,C,H,W] tensor, got sizes %v", s)
	}
	if s[1] == 0 || s[2] == 0 || s[3] == 0 {
		return unbox.ArgError(0, "self", "non-empty 4D tensor expected (only the batch may be empty), got sizes %v", s)
	}
	if len(osz) != 2 {
		return unbox.ArgError(1, "output_size", "want 2 sizes, got %v", osz)
	}
	if osz[0] <= 0 || osz[1] <= 0 || osz[0] > math.MaxInt32 || osz[1] > math.MaxInt32 {
		return unbox.ArgError(1, "output_size", "sizes should be in [1, 2^31), got %v", osz)
	}
	if err := poolDtype(in, "_upsample_bilinear2d_aa", realTypes); err != nil {
		return err
	}
	if err := poolSameDtype(in, out, "out"); err != nil {
		return err
	}
	oh, ow := int(osz[0]), int(osz[1])
	if err := resize(out, []int{s[0], s[1], oh, ow}); err != nil {
		return err
	}
	if !(hasH && hasW) {
		sh, sw = float64(oh)/float64(s[2]), float64(ow)/float64(s[3])
	}
	hw := aaWeights(oh, s[2], float32(aaScale(s[2], oh, align, sh)))
	ww := aaWeights(ow, s[3], float32(aaScale(s[3], ow, align, sw)))
	dt := in.ScalarType()
	x := loadF64(in)
	y := make([]float64, out.Numel())
	planes, ih, iw := poolPlanes(s)
	e := 0
	for p := 0; p < planes; p++ {
		plane := x[p*ih*iw : (p+1)*ih*iw]
		for _, h := range hw {
			for _, w := range ww {
				v := 0.0
				for a, hwt := range h.w {
					row := plane[(h.lo+a)*iw:]
					for b, wwt := range w.w {
						xv := row[w.lo+b]
						if dt == executor.Float64 {
							v += xv * float64(hwt) * float64(wwt)
							continue
						}
						c := float32(float32(xv)*hwt) * wwt
						if r, ok := halfRounder(dt); ok {
							// c10::Half has += only with a Half: the float product is
							// rounded to the half type before it is added.
							v = float64(r(float32(v) + r(c)))
						} else if isFloat(dt) {
							v = roundTo(dt, float64(float32(v)+c))
						} else {
							v = math.Trunc(float64(float32(v) + c))
						}
					}
				}
				y[e] = v
				e++
			}
		}
	}
	storeF64(out, y)
	return nil
}

// aaScale is PyTorch's area_pixel_compute_scale in float64.
func aaScale(in, out int, align bool, scale float64) float64 {
	switch {
	case align && out > 1:
		return float64(in-1) / float64(out-1)
	case align:
		return 0
	case scale > 0:
		return 1 / scale
	}
	return float64(in) / float64(out)
}

// aaWindow is the inputs [lo, lo+len(w)) that one output index averages, with their
// normalized weights.
type aaWindow struct {
	lo int
	w  []float32
}

// aaWeights computes the anti-aliasing window of every output index of one dimension in
// float32, as ExecuTorch's compute_aa_kernel_params: an empty window or one whose weights sum
// to zero falls back to the nearest input clamp(int(centre), 0, in-1) with weight 1.
func aaWeights(out, in int, scale float32) []aaWindow {
	support, invscale := float32(1), float32(1)
	if scale >= 1 {
		support, invscale = scale, 1/scale
	}
	tri := func(x float32) float32 {
		x = float32(math.Abs(float64(x)))
		if x < 1 {
			return 1 - x
		}
		return 0
	}
	ws := make([]aaWindow, out)
	for o := range ws {
		centre := scale * (float32(o) + 0.5)
		lo := max(int(centre-support+0.5), 0)
		hi := min(int(centre+support+0.5), in)
		total := float32(0)
		for i := lo; i < hi; i++ {
			total += tri((float32(i) - centre + 0.5) * invscale)
		}
		if hi <= lo || total <= 0 {
			ws[o] = aaWindow{lo: max(0, min(int(centre), in-1)), w: []float32{1}}
			continue
		}
		w := make([]float32, hi-lo)
		for i := range w {
			w[i] = tri((float32(lo+i)-centre+0.5)*invscale) / total
		}
		ws[o] = aaWindow{lo: lo, w: w}
	}
	return ws
}
