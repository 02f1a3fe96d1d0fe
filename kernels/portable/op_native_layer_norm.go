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
	if reduceContiguousF32(in, weight, bias, out, mean, rstd) {
		layerNormRows(executor.Data[float32](in), reduceF32OrNil(weight), reduceF32OrNil(bias),
			executor.Data[float32](out), executor.Data[float32](mean), executor.Data[float32](rstd), m, n, eps)
		return nil
	}
	x := loadF64(in)
	mv, rv := make([]float64, m), make([]float64, m)
	layerNormRows(x, reduceF64OrNil(weight), reduceF64OrNil(bias), x, mv, rv, m, n, eps)
	storeF64(out, x)
	storeF64(mean, mv)
	storeF64(rstd, rv)
	return nil
}

// layerNormRows normalizes m rows of n elements of x into y (which may be x); w and b may be
// nil. Empty rows get mean 0 and rstd NaN, as in PyTorch.
func layerNormRows[T float32 | float64](x, w, b, y, mean, rstd []T, m, n int, eps float64) {
	for i := 0; i < m; i++ {
		if n == 0 {
			mean[i], rstd[i] = 0, T(math.NaN())
			continue
		}
		row, yr := x[i*n:(i+1)*n], y[i*n:(i+1)*n]
		mu, r := reduceMeanRstd(row, eps)
		for j, v := range row {
			z := (float64(v) - mu) * r
			if w != nil {
				z *= float64(w[j])
			}
			if b != nil {
				z += float64(b[j])
			}
			yr[j] = T(z)
		}
		mean[i], rstd[i] = T(mu), T(r)
	}
}
