package portable

import (
	"math/rand/v2"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::rand.out", DTypes: floatTypes, Fn: randOut})
}

// aten::rand.out(SymInt[] size, *, Tensor(a!) out).
//
// Fills out, resized to size, with independent samples uniform on [0, 1). Like ExecuTorch's
// kernel, which draws from a std::mt19937 freshly seeded by std::random_device on every call,
// the values are not reproducible and cannot equal PyTorch's. etgo's generator is
// math/rand/v2's global source (ChaCha8, seeded from the operating system's entropy, safe for
// concurrent use). Each sample is k·2^-m for a uniform integer k < 2^m, m being the dtype's
// significand bits (53, 24, 11, 8 for Float64, Float32, Float16, BFloat16), so every value is
// exact in out's dtype and below 1 (ExecuTorch casts a double, which can round up to 1.0).
func randOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxRandOut(args)
	if err != nil {
		return err
	}
	return randomOut(a, "rand", func(dt executor.ScalarType) float64 {
		m := randSignificandBits(dt)
		return float64(rand.Uint64()>>(64-m)) / float64(uint64(1)<<m)
	})
}

// randSignificandBits is the number of significand bits of a floating dtype.
func randSignificandBits(dt executor.ScalarType) int {
	switch dt {
	case executor.Float32:
		return 24
	case executor.Float16:
		return 11
	case executor.BFloat16:
		return 8
	}
	return 53
}

// randomOut is a random factory (SymInt[] size, *, Tensor(a!) out): out, of a floating
// dtype, resized to size and filled with sample(dtype) for every element.
func randomOut(a sizeOutArgs, op string, sample func(executor.ScalarType) float64) error {
	out := a.Out
	sizes, err := shapeSizes(a.Size, 0, "size")
	if err != nil {
		return err
	}
	dt := out.ScalarType()
	if !isFloat(dt) {
		return unbox.ArgError(1, "out", "%s supports floating dtypes, got %s", op, executor.DTypeName(dt))
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	v := make([]float64, out.Numel())
	for i := range v {
		v[i] = sample(dt)
	}
	storeF64(out, v)
	return nil
}
