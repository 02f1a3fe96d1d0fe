package optimized

import (
	"math"

	"github.com/etgo/etgo/executor"
)

func init() {
	register("aten::native_layer_norm.out", floatDTypes, nativeLayerNormOut)
}

// aten::native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight,
// Tensor? bias, float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2). The fast path
// is every tensor float32 and contiguous with the shapes right: the portable algorithm (two
// float64 passes per row, in the same order), so bitwise equal to it, with the rows split over
// threads and the weight/bias cases hoisted out of the inner loop. Everything else, including
// every error, is the portable kernel's.
func nativeLayerNormOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxNativeLayerNormOut(args)
	if err != nil {
		return err
	}
	m, n, ok := layerNormFast(a)
	if !ok {
		return fallback("aten::native_layer_norm.out")(ctx, args)
	}
	x, y := executor.Data[float32](a.Input), executor.Data[float32](a.Out0)
	mean, rstd := executor.Data[float32](a.Out1), executor.Data[float32](a.Out2)
	var w, b []float32
	if a.Weight != nil {
		w = executor.Data[float32](a.Weight)
	}
	if a.Bias != nil {
		b = executor.Data[float32](a.Bias)
	}
	parallelFor(threads, m, m*n, func(lo, hi int) {
		var mus, rs [4]float64
		for i := lo; i < hi; i++ {
			if (i-lo)%4 == 0 && i+4 <= hi {
				// Four rows' statistics at once: four independent float64 chains, each
				// summed in the portable order, so bitwise its result at about four
				// times the rate of one latency-bound chain.
				mus, rs = meanRstd4(x[i*n:(i+4)*n], n, a.Eps)
			} else if (i-lo)%4 == 0 {
				for k := 0; k < min(4, hi-i); k++ {
					mus[k], rs[k] = meanRstd(x[(i+k)*n:(i+k+1)*n], a.Eps)
				}
			}
			row, yr := x[i*n:(i+1)*n], y[i*n:(i+1)*n]
			mu, r := mus[(i-lo)%4], rs[(i-lo)%4]
			// The portable kernel's statements, in its order (a fused or reordered
			// multiply-add would change the rounding, and which NaN propagates).
			switch {
			case w != nil && b != nil:
				for j, v := range row {
					z := (float64(v) - mu) * r
					z *= float64(w[j])
					z += float64(b[j])
					yr[j] = float32(z)
				}
			case w != nil:
				for j, v := range row {
					z := (float64(v) - mu) * r
					z *= float64(w[j])
					yr[j] = float32(z)
				}
			case b != nil:
				for j, v := range row {
					z := (float64(v) - mu) * r
					z += float64(b[j])
					yr[j] = float32(z)
				}
			default:
				for j, v := range row {
					yr[j] = float32((float64(v) - mu) * r)
				}
			}
			mean[i], rstd[i] = float32(mu), float32(r)
		}
	})
	return nil
}

// layerNormFast checks the fast path's conditions, sizes the three outs, and returns the rows
// and the row length. False leaves the call (and its error) to the portable kernel.
func layerNormFast(a nativeLayerNormOutArgs) (m, n int, ok bool) {
	in := a.Input
	nd := len(a.NormalizedShape)
	if nd == 0 || nd > in.Dim() {
		return 0, 0, false
	}
	lead := in.Dim() - nd
	n = 1
	for k, s := range a.NormalizedShape {
		if int64(in.Size(lead+k)) != s {
			return 0, 0, false
		}
		n *= int(s)
	}
	m = 1
	stat := make([]int, in.Dim())
	for d := range stat {
		stat[d] = 1
		if d < lead {
			stat[d] = in.Size(d)
			m *= in.Size(d)
		}
	}
	if n == 0 || !allF32Contiguous(in, a.Weight, a.Bias) {
		return 0, 0, false
	}
	for _, p := range []*executor.Tensor{a.Weight, a.Bias} {
		if p != nil && !sameSizes(p.Sizes(), in.Sizes()[lead:]) {
			return 0, 0, false
		}
	}
	if a.Out0.Resize(in.Sizes()) != nil || a.Out1.Resize(stat) != nil || a.Out2.Resize(stat) != nil {
		return 0, 0, false
	}
	if !allF32Contiguous(a.Out0, a.Out1, a.Out2) {
		return 0, 0, false
	}
	return m, n, true
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

// meanRstd4 is meanRstd of the four rows of n values in v, their sums interleaved.
func meanRstd4(v []float32, n int, eps float64) (mu, r [4]float64) {
	x0, x1, x2, x3 := v[:n], v[n:2*n], v[2*n:3*n], v[3*n:4*n]
	var s0, s1, s2, s3 float64
	for j := range x0 {
		s0 += float64(x0[j])
		s1 += float64(x1[j])
		s2 += float64(x2[j])
		s3 += float64(x3[j])
	}
	N := float64(n)
	m0, m1, m2, m3 := s0/N, s1/N, s2/N, s3/N
	var q0, q1, q2, q3 float64
	for j := range x0 {
		d0 := float64(x0[j]) - m0
		d1 := float64(x1[j]) - m1
		d2 := float64(x2[j]) - m2
		d3 := float64(x3[j]) - m3
		q0 += d0 * d0
		q1 += d1 * d1
		q2 += d2 * d2
		q3 += d3 * d3
	}
	return [4]float64{m0, m1, m2, m3}, [4]float64{1 / math.Sqrt(q0/N+eps), 1 / math.Sqrt(q1/N+eps), 1 / math.Sqrt(q2/N+eps), 1 / math.Sqrt(q3/N+eps)}
}

// allF32Contiguous reports whether every present tensor is contiguous float32.
func allF32Contiguous(ts ...*executor.Tensor) bool {
	for _, t := range ts {
		if t != nil && (t.ScalarType() != executor.Float32 || !t.IsContiguous()) {
			return false
		}
	}
	return true
}

func sameSizes(a, b []int) bool {
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
