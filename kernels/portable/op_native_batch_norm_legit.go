package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::_native_batch_norm_legit.out", DTypes: floatTypes, Fn: nativeBatchNormLegitOut},
		executor.Kernel{Name: "aten::_native_batch_norm_legit.no_stats_out", DTypes: floatTypes, Fn: nativeBatchNormLegitNoStatsOut},
	)
}

// aten::_native_batch_norm_legit.out(Tensor input, Tensor? weight, Tensor? bias,
// Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps,
// *, Tensor(d!) out, Tensor(e!) save_mean, Tensor(f!) save_invstd); the call ends with the
// TensorList return slot.
//
// ExecuTorch's portable kernel supports inference only: training=True is refused ("Portable
// kernels only support inference mode"), and training=False is
// _native_batch_norm_legit_no_training.out (save_mean and save_invstd resized to [0]). Eager
// PyTorch would, in training mode, normalize by the batch statistics and update the running
// stats in place; etgo follows the official kernel, so a program exported in training mode is
// refused here as it is by ExecuTorch.
func nativeBatchNormLegitOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxNativeBatchNormLegitOut(args)
	if err != nil {
		return err
	}
	if u.Training {
		return unbox.ArgError(5, "training", "portable kernels only support inference mode (training=False)")
	}
	return batchNormRunningStats(u.Input, u.Weight, u.Bias, u.RunningMean, u.RunningVar, u.Eps,
		[3]*executor.Tensor{u.Out, u.SaveMean, u.SaveInvstd}, 8)
}

// aten::_native_batch_norm_legit.no_stats_out(Tensor input, Tensor? weight, Tensor? bias,
// bool training, float momentum, float eps, *, Tensor(a!) out0, Tensor(b!) out1,
// Tensor(c!) out2); the call ends with the TensorList return slot.
//
// Batch norm by the batch's own statistics over channel dim 1 of an (N, C, ...) input: per
// channel, mean over N and the trailing dims, biased variance, invstd = 1/sqrt(var + eps);
// out0 = (x - mean) * invstd * weight + bias, out1 = mean [C], out2 = invstd [C]. momentum is
// unused (there are no running stats). As in ExecuTorch's kernel, training is ignored; eager
// PyTorch refuses training=False here ("running_mean must be defined in evaluation mode").
// Statistics are computed in float64 (two passes), so they can differ from the official
// kernel's single-pass E[x²]-E[x]² in the last bits. A channel with no elements (N or a
// trailing dim zero) has a NaN mean and invstd, as 0/0 gives in ExecuTorch.
func nativeBatchNormLegitNoStatsOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxNativeBatchNormLegitNoStatsOut(args)
	if err != nil {
		return err
	}
	in, weight, bias, eps := u.Input, u.Weight, u.Bias, u.Eps
	dt := in.ScalarType()
	if !isFloat(dt) {
		return unbox.ArgError(0, "input", "want a floating tensor, got %s", executor.DTypeName(dt))
	}
	if in.Dim() < 2 {
		return unbox.ArgError(0, "input", "rank %d; batch norm needs (N, C, ...) input", in.Dim())
	}
	out, out1, out2 := u.Out, u.SaveMean, u.SaveInvstd
	if err := reduceNormOuts(6, dt, out, out1, out2); err != nil {
		return err
	}
	c := in.Size(1)
	if err := batchNormParams(dt, c, weight, bias); err != nil {
		return err
	}
	if err := resize(out, in.Sizes()); err != nil {
		return err
	}
	if err := reduceResizeNamed(out1, []int{c}, "out1"); err != nil {
		return err
	}
	if err := reduceResizeNamed(out2, []int{c}, "out2"); err != nil {
		return err
	}
	x := loadF64(in)
	outer, _, inner := reduceSplit(in.Sizes(), 1)
	if r, ok := halfRounder(dt); ok {
		mean, vr := batchNormStatsHalf(x, outer, c, inner, r)
		batchNormHalf(in, out, outer, c, inner, mean, vr, reduceF64OrNil(weight), reduceF64OrNil(bias), eps, r)
		invstd := make([]float64, c)
		for k := range invstd {
			invstd[k] = float64(halfScalar(r, 1/math.Sqrt(vr[k]+eps)))
		}
		storeF64(out1, mean)
		storeF64(out2, invstd)
		return nil
	}
	count := float64(outer * inner)
	mean, varc := make([]float64, c), make([]float64, c)
	for o := 0; o < outer; o++ {
		for k := 0; k < c; k++ {
			for _, v := range x[(o*c+k)*inner : (o*c+k+1)*inner] {
				mean[k] += v
			}
		}
	}
	for k := range mean {
		mean[k] /= count
	}
	for o := 0; o < outer; o++ {
		for k := 0; k < c; k++ {
			for _, v := range x[(o*c+k)*inner : (o*c+k+1)*inner] {
				d := v - mean[k]
				varc[k] += d * d
			}
		}
	}
	invstd, scale, shift := make([]float64, c), make([]float64, c), make([]float64, c)
	w, b := reduceF64OrNil(weight), reduceF64OrNil(bias)
	for k := range invstd {
		invstd[k] = 1 / math.Sqrt(varc[k]/count+eps)
		scale[k] = invstd[k]
		if w != nil {
			scale[k] *= w[k]
		}
		if b != nil {
			shift[k] = b[k]
		}
	}
	batchNormApply(x, x, outer, c, inner, mean, scale, shift)
	storeF64(out, x)
	storeF64(out1, mean)
	storeF64(out2, invstd)
	return nil
}

// batchNormStatsHalf is the official no-stats batch norm's statistics in float16/bfloat16: per
// image and channel, the sum and the sum of squares accumulate in float (reduce_add,
// vec_powerf) and are rounded to the half type, then added to the channel's half accumulators;
// mean = sum/count and var = sumsq/count - mean², each operation rounded by r.
func batchNormStatsHalf(x []float64, outer, c, inner int, r func(float32) float32) (mean, vr []float64) {
	sums, sqs := make([]float32, c), make([]float32, c)
	for o := range outer {
		for k := range c {
			var s, q float32
			for _, v := range x[(o*c+k)*inner:][:inner] {
				f := float32(v)
				s += f
				q += float32(f * f)
			}
			sums[k] = r(sums[k] + r(s))
			sqs[k] = r(sqs[k] + r(q))
		}
	}
	n := r(float32(outer * inner))
	mean, vr = make([]float64, c), make([]float64, c)
	for k := range c {
		m := r(sums[k] / n)
		mean[k] = float64(m)
		vr[k] = float64(r(r(sqs[k]/n) - r(m*m)))
	}
	return mean, vr
}
