package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::_native_batch_norm_legit_no_training.out", DTypes: floatTypes, Fn: nativeBatchNormNoTrainingOut})
}

// aten::_native_batch_norm_legit_no_training.out(Tensor input, Tensor? weight, Tensor? bias,
// Tensor running_mean, Tensor running_var, float momentum, float eps, *, Tensor(a!) out0,
// Tensor(b!) out1, Tensor(c!) out2); the call ends with the TensorList return slot.
// Inference batch norm over channel dim 1: (x - mean[c]) / sqrt(var[c] + eps) * weight[c] +
// bias[c]. As in ExecuTorch (and PyTorch, which returns empty save_mean/save_invstd here),
// out1 and out2 are resized to [0]. Every tensor has input's dtype; parameters are rank 1 of
// size C. The per-channel scale is computed in float64; contiguous float32 is read and written
// directly.
func nativeBatchNormNoTrainingOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxNativeBatchNormLegitNoTrainingOut(args)
	if err != nil {
		return err
	}
	return batchNormRunningStats(u.Input, u.Weight, u.Bias, u.RunningMean, u.RunningVar, u.Eps,
		[3]*executor.Tensor{u.Out0, u.Out1, u.Out2}, 7)
}

// batchNormRunningStats is inference batch norm by the running statistics; the three outs are
// arguments outAt..outAt+2 of the call.
func batchNormRunningStats(in, weight, bias, runMean, runVar *executor.Tensor, eps float64, outs [3]*executor.Tensor, outAt int) error {
	dt := in.ScalarType()
	if !isFloat(dt) {
		return unbox.ArgError(0, "input", "want a floating tensor, got %s", executor.DTypeName(dt))
	}
	if in.Dim() < 2 {
		return unbox.ArgError(0, "input", "rank %d; batch norm needs (N, C, ...) input", in.Dim())
	}
	if err := reduceNormOuts(outAt, dt, outs[:]...); err != nil {
		return err
	}
	out, out1, out2 := outs[0], outs[1], outs[2]
	c := in.Size(1)
	if err := batchNormParams(dt, c, weight, bias, runMean, runVar); err != nil {
		return err
	}
	if err := resize(out, in.Sizes()); err != nil {
		return err
	}
	if err := reduceResizeNamed(out1, []int{0}, "out1"); err != nil {
		return err
	}
	if err := reduceResizeNamed(out2, []int{0}, "out2"); err != nil {
		return err
	}
	// y = (x - mean) * scale + shift per channel.
	mean, vr := loadF64(runMean), loadF64(runVar)
	w, b := reduceF64OrNil(weight), reduceF64OrNil(bias)
	scale, shift := make([]float64, c), make([]float64, c)
	for k := range scale {
		scale[k] = 1 / math.Sqrt(vr[k]+eps)
		if w != nil {
			scale[k] *= w[k]
		}
		if b != nil {
			shift[k] = b[k]
		}
	}
	outer, _, inner := reduceSplit(in.Sizes(), 1)
	if r, ok := halfRounder(dt); ok {
		batchNormHalf(in, out, outer, c, inner, mean, vr, w, b, eps, r)
		return nil
	}
	if reduceContiguousF32(in, out) {
		batchNormApply(executor.Data[float32](in), executor.Data[float32](out), outer, c, inner, mean, scale, shift)
		return nil
	}
	x := loadF64(in)
	batchNormApply(x, x, outer, c, inner, mean, scale, shift)
	storeF64(out, x)
	return nil
}

// batchNormApply writes y = (x - mean[c]) * scale[c] + shift[c] over (outer, C, inner) rows.
func batchNormApply[T float32 | float64](x, y []T, outer, c, inner int, mean, scale, shift []float64) {
	e := 0
	for o := 0; o < outer; o++ {
		for k := 0; k < c; k++ {
			mu, s, sh := mean[k], scale[k], shift[k]
			xr, yr := x[e:e+inner], y[e:e+inner]
			for j, v := range xr {
				yr[j] = T((float64(v)-mu)*s + sh)
			}
			e += inner
		}
	}
}

// batchNormParams checks batch norm's per-channel tensors, arguments 1, 2, ... in the order
// weight, bias, running_mean, running_var (nil for an absent one): each must have dtype dt
// and sizes [c].
func batchNormParams(dt executor.ScalarType, c int, ts ...*executor.Tensor) error {
	names := []string{"weight", "bias", "running_mean", "running_var"}
	for k, t := range ts {
		if t == nil {
			continue
		}
		if err := reduceSameDtype(t, dt, k+1, names[k]); err != nil {
			return err
		}
		if t.Dim() != 1 || t.Size(0) != c {
			return unbox.ArgError(k+1, names[k], "sizes %v, want [%d] (input's channels)", t.Sizes(), c)
		}
	}
	return nil
}

// batchNormHalf is the official portable no-training batch norm in float16 and bfloat16:
// invstd = 1/sqrt(var + eps) in double (c10's half + double is a double), rounded to the half
// type once; then (x - mean) · invstd · weight + bias, each operation rounded by r (weight 1 and
// bias 0 when absent: the bias is always added, so -0 becomes +0 as officially).
func batchNormHalf(in, out *executor.Tensor, outer, c, inner int, mean, vr, w, b []float64, eps float64, r func(float32) float32) {
	x := loadF64(in)
	for k := range c {
		invstd := halfScalar(r, 1/math.Sqrt(vr[k]+eps))
		mu, wk, bk := float32(mean[k]), float32(1), float32(0)
		if w != nil {
			wk = float32(w[k])
		}
		if b != nil {
			bk = float32(b[k])
		}
		for o := range outer {
			row := x[(o*c+k)*inner:][:inner]
			for j, v := range row {
				row[j] = float64(r(r(r(r(float32(v)-mu)*invstd)*wk) + bk))
			}
		}
	}
	storeF64(out, x)
}
