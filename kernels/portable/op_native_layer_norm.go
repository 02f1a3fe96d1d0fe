package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::native_layer_norm.out", DTypes: floatTypes, Fn: nativeLayerNormOut})
}

// aten::native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight,
// Tensor? bias, float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2); the call ends
// with the TensorList return slot. Each row over the trailing normalized_shape dims is
// normalized, (x - mean) * rstd * weight + bias with rstd = 1/sqrt(var + eps) (biased
// variance); out1/out2 receive mean and rstd, sized like input with the normalized dims 1.
// Statistics are computed in float64 in two passes; contiguous float32 takes a direct path.
func nativeLayerNormOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxNativeLayerNormOut(args)
	if err != nil {
		return err
	}
	in, shape, weight, bias, eps := u.Input, u.NormalizedShape, u.Weight, u.Bias, u.Eps
	dt := in.ScalarType()
	if !isFloat(dt) {
		return unbox.ArgError(0, "input", "want a floating tensor, got %s", executor.DTypeName(dt))
	}
	out, mean, rstd := u.Out0, u.Out1, u.Out2
	if err := reduceNormOuts(5, dt, out, mean, rstd); err != nil {
		return err
	}
	nd := len(shape)
	if nd == 0 || nd > in.Dim() {
		return unbox.ArgError(1, "normalized_shape", "%v must name 1 to %d trailing dims of input %v", shape, in.Dim(), in.Sizes())
	}
	lead := in.Dim() - nd
	for k, s := range shape {
		if int64(in.Size(lead+k)) != s {
			return unbox.ArgError(1, "normalized_shape", "%v does not match input's trailing sizes %v", shape, in.Sizes()[lead:])
		}
	}
	for _, p := range []struct {
		t    *executor.Tensor
		i    int
		name string
	}{{weight, 2, "weight"}, {bias, 3, "bias"}} {
		if p.t == nil {
			continue
		}
		if err := reduceSameDtype(p.t, dt, p.i, p.name); err != nil {
			return err
		}
		if !equalShape(p.t.Sizes(), in.Sizes()[lead:]) {
			return unbox.ArgError(p.i, p.name, "sizes %v, want the normalized shape %v", p.t.Sizes(), shape)
		}
	}
	statSizes := make([]int, in.Dim())
	for d := range statSizes {
		statSizes[d] = 1
		if d < lead {
			statSizes[d] = in.Size(d)
		}
	}
	if err := resize(out, in.Sizes()); err != nil {
		return err
	}
	if err := reduceResizeNamed(mean, statSizes, "out1 (mean)"); err != nil {
		return err
	}
	if err := reduceResizeNamed(rstd, statSizes, "out2 (rstd)"); err != nil {
		return err
	}
	m, size, inner := reduceSplit(in.Sizes(), lead)
	n := size * inner
	if dt == executor.Float64 {
		x := loadF64(in)
		mv, rv := make([]float64, m), make([]float64, m)
		layerNormRowsF64(x, reduceF64OrNil(weight), reduceF64OrNil(bias), x, mv, rv, m, n, float32(eps))
		storeF64(out, x)
		storeF64(mean, mv)
		storeF64(rstd, rv)
		return nil
	}
	if reduceContiguousF32(in, weight, bias, out, mean, rstd) {
		LayerNormRows(executor.Data[float32](in), reduceF32OrNil(weight), reduceF32OrNil(bias),
			executor.Data[float32](out), executor.Data[float32](mean), executor.Data[float32](rstd), m, n, float32(eps))
		return nil
	}
	// Half, bfloat16 and strided float32: every value is exact in float32, the type the C++
	// kernel computes in; eps is first rounded to the tensor's type (the kernel's CTYPE eps),
	// and the stores round once more (rstd from its double 1.0/std through float, as C++'s
	// implicit conversions do).
	x := poolF32(loadF64(in))
	y, mv, rv := make([]float32, len(x)), make([]float32, m), make([]float32, m)
	LayerNormRows(x, layerNormF32OrNil(weight), layerNormF32OrNil(bias), y, mv, rv, m, n, float32(roundTo(dt, eps)))
	storeF64(out, poolF64(y))
	storeF64(mean, poolF64(mv))
	storeF64(rstd, poolF64(rv))
	return nil
}

// LayerNormRows is ExecuTorch 1.5.1's layer_norm_scalar (portable/cpu/util/
// normalization_ops_util.h), which both the portable kernel and, for rows shorter than 256,
// the optimized one run: per row, float sums of x and of x² in order, mean = sum/N,
// var = sq/N − mean², std = sqrt(var + eps), y = (x − mean)/std·w + b, rstd = 1.0/std in
// double. Every step rounds to float32 (the conversions keep Go from fusing a multiply-add,
// which the official x86-64 build does not do either). w and b may be nil (1 and 0, still
// applied: +0 turns a −0 into +0 as in C++). Empty rows get mean 0 and rstd NaN.
func LayerNormRows(x, w, b, y, mean, rstd []float32, m, n int, eps float32) {
	if n == 0 {
		for i := range m {
			mean[i], rstd[i] = 0, float32(math.NaN())
		}
		return
	}
	var mus, sds [4]float32
	for i := 0; i < m; i++ {
		if k := i % 4; k == 0 {
			// Four rows' statistics at once: their serial float chains are independent, so
			// interleaving them changes no rounding and hides the add latency.
			if i+4 <= m {
				mus, sds = layerNormStats4(x[i*n:(i+4)*n], n, eps)
			} else {
				for r := i; r < m; r++ {
					mus[r-i], sds[r-i] = layerNormStats(x[r*n:(r+1)*n], eps)
				}
			}
		}
		mu, sd := mus[i%4], sds[i%4]
		row, yr := x[i*n:(i+1)*n], y[i*n:(i+1)*n]
		for j, v := range row {
			wj, bj := float32(1), float32(0)
			if w != nil {
				wj = w[j]
			}
			if b != nil {
				bj = b[j]
			}
			yr[j] = float32(float32((v-mu)/sd)*wj) + bj
		}
		mean[i], rstd[i] = mu, float32(1/float64(sd))
	}
}

// layerNormStats is one row's mean and std = sqrt(E[x²] − mean² + eps), in float32 and in the
// official order.
func layerNormStats(row []float32, eps float32) (float32, float32) {
	N := float32(len(row))
	var sum, sq float32
	for _, v := range row {
		sum += v
	}
	for _, v := range row {
		sq += float32(v * v)
	}
	mu := sum / N
	return mu, float32(math.Sqrt(float64(float32(sq/N) - float32(mu*mu) + eps)))
}

// layerNormStats4 is layerNormStats of the four rows of n values in v.
func layerNormStats4(v []float32, n int, eps float32) (mu, sd [4]float32) {
	x0, x1, x2, x3 := v[:n], v[n:2*n], v[2*n:3*n], v[3*n:4*n]
	var s0, s1, s2, s3, q0, q1, q2, q3 float32
	for j := range x0 {
		a, b, c, d := x0[j], x1[j], x2[j], x3[j]
		s0 += a
		s1 += b
		s2 += c
		s3 += d
		q0 += float32(a * a)
		q1 += float32(b * b)
		q2 += float32(c * c)
		q3 += float32(d * d)
	}
	N := float32(n)
	for k, p := range [4][2]float32{{s0, q0}, {s1, q1}, {s2, q2}, {s3, q3}} {
		mu[k] = p[0] / N
		sd[k] = float32(math.Sqrt(float64(float32(p[1]/N) - float32(mu[k]*mu[k]) + eps)))
	}
	return mu, sd
}

// layerNormRowsF64 is layer_norm_scalar<double>: the statistics still accumulate in float (a
// float sum of doubles, a float sum of float(x)·x products taken in double), the
// normalization runs in double.
func layerNormRowsF64(x, w, b, y, mean, rstd []float64, m, n int, eps float32) {
	N := float32(n)
	for i := 0; i < m; i++ {
		if n == 0 {
			mean[i], rstd[i] = 0, math.NaN()
			continue
		}
		row, yr := x[i*n:(i+1)*n], y[i*n:(i+1)*n]
		var sum, sq float32
		for _, v := range row {
			sum = float32(float64(sum) + v)
		}
		for _, v := range row {
			sq = float32(float64(sq) + float64(float32(v))*v)
		}
		mu := sum / N
		sd := float32(math.Sqrt(float64(float32(sq/N) - float32(mu*mu) + eps)))
		for j, v := range row {
			wj, bj := 1.0, 0.0
			if w != nil {
				wj = w[j]
			}
			if b != nil {
				bj = b[j]
			}
			yr[j] = float64((v-float64(mu))/float64(sd)*wj) + bj
		}
		mean[i], rstd[i] = float64(mu), 1/float64(sd)
	}
}

// layerNormF32OrNil reads an optional weight or bias as float32 (its values are exact there).
func layerNormF32OrNil(t *executor.Tensor) []float32 {
	if t == nil {
		return nil
	}
	return poolF32(loadF64(t))
}
