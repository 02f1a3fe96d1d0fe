package portable

import (
	"math/rand/v2"

	"github.com/etgo/etgo/executor"
)

func init() {
	register(executor.Kernel{Name: "aten::randn.out", DTypes: floatTypes, Fn: randnOut})
}

// aten::randn.out(SymInt[] size, *, Tensor(a!) out).
//
// Fills out, resized to size, with independent standard normal samples (mean 0, variance 1),
// each drawn in float64 and rounded to out's dtype as ExecuTorch's kernel does. Like
// ExecuTorch's (a std::mt19937 freshly seeded by std::random_device on every call), the
// values are not reproducible and cannot equal PyTorch's; etgo's generator is math/rand/v2's
// global source (ChaCha8, seeded from the operating system's entropy) through NormFloat64.
func randnOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxRandnOut(args)
	if err != nil {
		return err
	}
	return randomOut(a, "randn", func(executor.ScalarType) float64 { return rand.NormFloat64() })
}
