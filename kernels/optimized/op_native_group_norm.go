package optimized

import (
	"math"

	"github.com/etgo/etgo/executor"
)

func init() {
	register("aten::native_group_norm.out", floatDTypes, nativeGroupNormOut)
}

// aten::native_group_norm.out(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C,
// SymInt HxW, int group, float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2). The
// fast path is every tensor float32 and contiguous with the sizes right: the portable algorithm
// (two float64 passes per group, the same expressions), so bitwise equal to it, with the N·group
// groups split over threads. Everything else, including every error, is the portable kernel's.
func nativeGroupNormOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxNativeGroupNormOut(args)
	if err != nil {
		return err
	}
	in := a.Input
	n, c, hxw, g := a.N, a.C, a.HxW, a.Group
	if in.Dim() < 2 || int64(in.Size(0)) != n || int64(in.Size(1)) != c || g <= 0 || c%g != 0 || hxw <= 0 ||
		int64(in.Numel()) != n*c*hxw || !allF32Contiguous(in, a.Weight, a.Bias) {
		return fallback("aten::native_group_norm.out")(ctx, args)
	}
	for _, p := range []*executor.Tensor{a.Weight, a.Bias} {
		if p != nil && (p.Dim() != 1 || int64(p.Size(0)) != c) {
			return fallback("aten::native_group_norm.out")(ctx, args)
		}
	}
	stat := []int{int(n), int(g)}
	if a.Out0.Resize(in.Sizes()) != nil || a.Out1.Resize(stat) != nil || a.Out2.Resize(stat) != nil ||
		!allF32Contiguous(a.Out0, a.Out1, a.Out2) {
		return fallback("aten::native_group_norm.out")(ctx, args)
	}
	x, y := executor.Data[float32](in), executor.Data[float32](a.Out0)
	mean, rstd := executor.Data[float32](a.Out1), executor.Data[float32](a.Out2)
	var w, b []float32
	if a.Weight != nil {
		w = executor.Data[float32](a.Weight)
	}
	if a.Bias != nil {
		b = executor.Data[float32](a.Bias)
	}
	groups, gi, d, hw := int(n*g), int(g), int(c/g), int(hxw)
	size := d * hw
	parallelFor(threads, groups, len(x), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			mu, r := meanRstd(x[i*size:(i+1)*size], a.Eps)
			for j := 0; j < d; j++ {
				ch := (i%gi)*d + j
				s, sh := r, 0.0
				if w != nil {
					s *= float64(w[ch])
				}
				if b != nil {
					sh = float64(b[ch])
				}
				off := (i*d + j) * hw
				xr, yr := x[off:off+hw], y[off:off+hw]
				for k, v := range xr {
					yr[k] = float32((float64(v)-mu)*s + sh)
				}
			}
			mean[i], rstd[i] = float32(mu), float32(r)
		}
	})
	return nil
}

// meanRstd is the portable kernel's row statistics, in its order: the mean, then the biased
// variance around it, in float64.
func meanRstd(v []float32, eps float64) (float64, float64) {
	sum := 0.0
	for _, x := range v {
		sum += float64(x)
	}
	mu := sum / float64(len(v))
	ss := 0.0
	for _, x := range v {
		d := float64(x) - mu
		ss += d * d
	}
	return mu, 1 / math.Sqrt(ss/float64(len(v))+eps)
}
