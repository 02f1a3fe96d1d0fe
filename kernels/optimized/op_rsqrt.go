package optimized

import (
	"math"

	"github.com/etgo/etgo/executor"
)

func init() {
	register("aten::rsqrt.out", realBoolDTypes, rsqrtOut)
}

// rsqrtChunk is the element count of one parallel task.
const rsqrtChunk = 4096

// aten::rsqrt.out(Tensor self, *, Tensor(a!) out). The fast path is float32 in and out,
// contiguous: 1/sqrt(x) in float32 as the official kernel computes it (sqrtf then a float32
// division; the float64 square root rounded to float32 is sqrtf's result exactly), so the result
// is the official one bit for bit, as is the portable kernel's (the test's tolerance is none).
// NaN, 0 → +Inf, -0 → -Inf, negative → NaN in both. Everything else is the portable kernel's.
func rsqrtOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxRsqrtOut(args)
	if err != nil {
		return err
	}
	if !sameF32Contiguous(a.Self, a.Out) {
		return fallback("aten::rsqrt.out")(ctx, args)
	}
	x, y := executor.Data[float32](a.Self), executor.Data[float32](a.Out)
	if badAlias(y, x) {
		return fallback("aten::rsqrt.out")(ctx, args)
	}
	chunks := (len(x) + rsqrtChunk - 1) / rsqrtChunk
	parallelFor(threads, chunks, len(x), func(lo, hi int) {
		lo, hi = lo*rsqrtChunk, min(hi*rsqrtChunk, len(x))
		for i, v := range x[lo:hi] {
			y[lo+i] = 1 / float32(math.Sqrt(float64(v)))
		}
	})
	return nil
}
