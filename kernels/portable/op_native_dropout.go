package portable

import (
	"math/rand/v2"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::native_dropout.out", DTypes: realBoolTypes, Fn: nativeDropoutOut})
}

// aten::native_dropout.out(Tensor input, float p, bool? train, *, Tensor(a!) out0,
// Tensor(b!) out1); the call ends with the TensorList return slot.
//
// out1 is a Bool mask of input's sizes and out0 has input's dtype and sizes. p must be in
// [0, 1]. In training (train None or true) with p > 0, each mask element is independently
// true with probability 1-p (a uniform sample on [0, 1) from math/rand/v2's global ChaCha8
// source, seeded from the operating system, compared >= p, as ExecuTorch compares a
// std::mt19937 sample) and out0 = mask ? input : 0, for floating inputs. Otherwise (train
// false, or p = 0) out0 is a copy of input, of any dtype, and the mask is all true.
//
// ExecuTorch's portable kernel, which etgo follows, does not scale the kept elements: eager
// PyTorch writes input * mask / (1-p). A program that relies on the 1/(1-p) scaling in
// training mode computes different values here, as it does on ExecuTorch.
func nativeDropoutOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxNativeDropoutOut(args)
	if err != nil {
		return err
	}
	in, p, out, mask := a.Input, a.P, a.Out0, a.Out1
	train := true // None
	if a.Train.OK {
		train = a.Train.Val
	}
	if err := poolSameDtype(in, out, "out0"); err != nil {
		return err
	}
	if mask.ScalarType() != executor.Bool {
		return unbox.ArgError(4, "out1", "the mask must be Bool, got %s", executor.DTypeName(mask.ScalarType()))
	}
	if !(p >= 0 && p <= 1) {
		return unbox.ArgError(1, "p", "dropout probability has to be between 0 and 1, but got %v", p)
	}
	random := train && p != 0
	if random && !isFloat(in.ScalarType()) {
		return unbox.ArgError(0, "input", "dropout in training supports floating dtypes, got %s", executor.DTypeName(in.ScalarType()))
	}
	if err := resize(out, in.Sizes()); err != nil {
		return err
	}
	if err := reduceResizeNamed(mask, in.Sizes(), "out1"); err != nil {
		return err
	}
	keep := make([]bool, in.Numel())
	for i := range keep {
		keep[i] = !random || rand.Float64() >= p
	}
	md := executor.Data[bool](mask)
	forEach(mask, func(i, o int) { md[o] = keep[i] })
	if !random {
		shapeConvertInto(out, in)
		return nil
	}
	x := loadF64(in)
	for i, k := range keep {
		if !k {
			x[i] = 0
		}
	}
	storeF64(out, x)
	return nil
}
