package optimized

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/portable"
)

func init() {
	register("aten::native_layer_norm.out", floatDTypes, nativeLayerNormOut)
}

// aten::native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight,
// Tensor? bias, float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2). The fast path
// is every tensor float32 and contiguous with the shapes right, and computes what ExecuTorch
// 1.5.1's optimized kernel computes: rows shorter than 256 through the portable scalar code
// (portable.LayerNormRows), longer ones through the vectorized Welford moments and
// (x·rstd − rstd·mean)·w + b, bit for bit; the rows split over threads. Everything else,
// including every error, is the portable kernel's.
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
	eps := float32(a.Eps)
	if n < layerNormSmallN {
		// ExecuTorch's optimized kernel runs the portable scalar code on short rows.
		parallelFor(threads, m, m*n, func(lo, hi int) {
			portable.LayerNormRows(x[lo*n:hi*n], w, b, y[lo*n:hi*n], mean[lo:hi], rstd[lo:hi], hi-lo, n, eps)
		})
		return nil
	}
	parallelFor(threads, m, m*n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row, yr := x[i*n:(i+1)*n], y[i*n:(i+1)*n]
			mu, v := rowwiseMoments(row)
			r := 1 / float32(math.Sqrt(float64(v+eps)))
			scale, offset := r, -r*mu
			// (x·scale + offset)·gamma + beta, each product rounded (no fused multiply-add,
			// as at::vec's separate mul and add); a missing weight or bias is 1 or 0.
			for j, xv := range row {
				g, be := float32(1), float32(0)
				if w != nil {
					g = w[j]
				}
				if b != nil {
					be = b[j]
				}
				yr[j] = float32(float32(float32(xv*scale)+offset)*g) + be
			}
			mean[i], rstd[i] = mu, r
		}
	})
	return nil
}

// layerNormSmallN is the row length below which ExecuTorch 1.5.1's optimized layer norm
// (kSmallNThreshold) falls back to the portable scalar code.
const layerNormSmallN = 256

// rowwiseMoments is ExecuTorch's RowwiseMoments (kernels/optimized/cpu/moments_utils.h) for
// float32 with 8-lane vectors, in its order: Welford updates over chunks of 16 vectors per
// lane, the chunks merged through a cascade stack, a scalar Welford tail, then the 8 lanes
// merged into it. It returns the mean and the biased variance, bit for bit.
func rowwiseMoments(x []float32) (float32, float32) {
	const lanes, chunk = 8, 16
	N := len(x)
	n := N / lanes
	m := (n + chunk - 1) / chunk
	depth := 0
	for 1<<depth < m {
		depth++
	}
	type vmom struct {
		m0     int
		m1, m2 [lanes]float32
	}
	// add merges (m0a, m1a, m2a) into s: AddMomentsVec.
	add := func(m0a int, m1a, m2a *[lanes]float32, s *vmom) {
		nn := s.m0 + m0a
		var c float32
		if nn != 0 {
			c = float32(m0a) / float32(nn)
		}
		old := float32(s.m0)
		for l := range lanes {
			d := m1a[l] - s.m1[l]
			s.m1[l] += float32(c * d)
			s.m2[l] += m2a[l] + float32(float32(float32(d*d)*c)*old)
		}
		s.m0 = nn
	}
	stk := make([]vmom, max(depth, 1))
	var inv [chunk]float32
	for j := range inv {
		inv[j] = 1 / float32(j+1)
	}
	for i := range m {
		m0 := min(chunk, n-i*chunk)
		var m1, m2 [lanes]float32
		for j := range m0 {
			xv := x[(i*chunk+j)*lanes:][:lanes]
			for l := range lanes {
				d := xv[l] - m1[l]
				m1[l] += float32(d * inv[j])
				m2[l] += float32(d * (xv[l] - m1[l]))
			}
		}
		add(m0, &m1, &m2, &stk[0])
		mask := i + 1
		for j := 1; j < depth && mask&1 == 0; j++ {
			add(stk[j-1].m0, &stk[j-1].m1, &stk[j-1].m2, &stk[j])
			stk[j-1] = vmom{}
			mask >>= 1
		}
	}
	for i := 1; i < depth; i++ {
		add(stk[i].m0, &stk[i].m1, &stk[i].m2, &stk[0])
	}
	var m0 int
	var m1, m2 float32
	for _, v := range x[n*lanes:] {
		d := v - m1
		m0++
		m1 += d / float32(m0)
		m2 += float32(d * (v - m1))
	}
	for l := range lanes {
		// AddMoments, the scalar merge of each lane's n values.
		nn := m0 + n
		var c float32
		if nn != 0 {
			c = float32(n) / float32(nn)
		}
		d := stk[0].m1[l] - m1
		m1 += float32(c * d)
		m2 += stk[0].m2[l] + float32(float32(float32(d*d)*c)*float32(m0))
		m0 = nn
	}
	return m1, m2 / float32(N)
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
