package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
)

func init() {
	register(executor.Kernel{Name: "aten::upsample_bilinear2d.vec_out", DTypes: realTypes, Fn: upsampleBilinear2dVecOut})
}

// aten::upsample_bilinear2d.vec_out(Tensor input, SymInt[]? output_size, bool align_corners,
// float[]? scale_factors, *, Tensor(a!) out).
//
// Exactly one of output_size and scale_factors is given; scale factors give out sizes
// floor(size*scale) and, without align_corners, set the source scale to 1/scale_factor.
// Source coordinates and weights follow PyTorch's area_pixel_compute_source_index, computed
// in float32 (float64 for Float64 inputs). Integer inputs (which ExecuTorch accepts) are
// interpolated in float32 and truncated, as ExecuTorch's portable kernel does.
func upsampleBilinear2dVecOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxUpsampleBilinear2dVecOut(args)
	if err != nil {
		return err
	}
	in, align, out := u.Input, u.AlignCorners, u.Out
	sizes, scale, hasScale, err := poolUpsampleArgs(in, u.OutputSize, u.ScaleFactors, 1, 3)
	if err != nil {
		return err
	}
	if err := poolDtype(in, "upsample_bilinear2d", realTypes); err != nil {
		return err
	}
	if err := poolSameDtype(in, out, "out"); err != nil {
		return err
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	s := in.Sizes()
	planes := s[0] * s[1]
	if in.ScalarType() == executor.Float64 {
		y := make([]float64, out.Numel())
		poolBilinear(loadF64(in), y, planes, s[2], s[3], sizes[2], sizes[3], align, scale, hasScale)
		storeF64(out, y)
		return nil
	}
	if in.ScalarType() == executor.Float32 && in.IsContiguous() && out.IsContiguous() {
		poolBilinear(executor.Data[float32](in), executor.Data[float32](out), planes, s[2], s[3], sizes[2], sizes[3], align, scale, hasScale)
		return nil
	}
	y := make([]float32, out.Numel())
	poolBilinear(poolF32(loadF64(in)), y, planes, s[2], s[3], sizes[2], sizes[3], align, scale, hasScale)
	storeF64(out, poolF64(y))
	return nil
}

// poolBilinear interpolates contiguous planes x (ih×iw) into y (oh×ow) in precision F, as the
// official portable kernel does: top = tl·λ0 + tr·λ1, bottom likewise, then top·λ0 + bottom·λ1,
// each product and sum rounded (the official build contracts nothing into fused multiply-adds,
// unlike PyTorch's eager x86 build: testdata/numerics_half.json.gz holds it bit for bit in
// float32, float16 and bfloat16). Half inputs interpolate in float32 (c10's half times float
// is a float) and round once.
func poolBilinear[F float32 | float64](x, y []F, planes, ih, iw, oh, ow int, align bool, scale [2]float64, hasScale bool) {
	h0, h1, lh0, lh1 := poolLinearWeights[F](ih, oh, align, scale[0], hasScale)
	w0, w1, lw0, lw1 := poolLinearWeights[F](iw, ow, align, scale[1], hasScale)
	e := 0
	for p := 0; p < planes; p++ {
		plane := x[p*ih*iw : (p+1)*ih*iw]
		for i := 0; i < oh; i++ {
			top, bot := plane[h0[i]*iw:(h0[i]+1)*iw], plane[h1[i]*iw:(h1[i]+1)*iw]
			for j := 0; j < ow; j++ {
				t := F(F(top[w0[j]]*lw0[j]) + F(top[w1[j]]*lw1[j]))
				b := F(F(bot[w0[j]]*lw0[j]) + F(bot[w1[j]]*lw1[j]))
				y[e] = F(F(t*lh0[i]) + F(b*lh1[i]))
				e++
			}
		}
	}
}

// poolLinearWeights is the official compute_source_index_and_lambda for every output index of
// one dimension, in precision F: the ratio is computed in double and narrowed (from the output
// size, 1/(out/in), as resize_upsample_2d's scale), the source index without fused
// multiply-adds.
func poolLinearWeights[F float32 | float64](in, out int, align bool, scale float64, hasScale bool) (i0, i1 []int, l0, l1 []F) {
	i0, i1 = make([]int, out), make([]int, out)
	l0, l1 = make([]F, out), make([]F, out)
	var ratio F
	switch {
	case align && out > 1:
		ratio = F(float64(in-1) / float64(out-1))
	case align:
		ratio = 0
	case hasScale && scale > 0:
		ratio = F(1.0 / scale)
	default:
		ratio = F(1.0 / (float64(out) / float64(in)))
	}
	for o := 0; o < out; o++ {
		if in == out {
			i0[o], i1[o], l0[o], l1[o] = o, o, 1, 0
			continue
		}
		var src F
		if align {
			src = F(ratio * F(o))
		} else {
			src = F(ratio*(F(o)+0.5)) - 0.5
			if src < 0 {
				src = 0
			}
		}
		k := min(int(math.Floor(float64(src))), in-1)
		lam := min(max(src-F(k), 0), 1)
		i0[o], l1[o], l0[o] = k, lam, 1-lam
		i1[o] = k
		if k < in-1 {
			i1[o] = k + 1
		}
	}
	return i0, i1, l0, l1
}
