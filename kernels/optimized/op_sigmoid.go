package optimized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/gemm"
)

func init() {
	register("aten::sigmoid.out", realBoolDTypes, sigmoidOut)
}

// sigmoidChunk is the element count of one parallel task (a multiple of the vector width).
const sigmoidChunk = 4096

// aten::sigmoid.out(Tensor self, *, Tensor(a!) out). The fast path is float32 in and out,
// contiguous: internal/gemm's vectorised sigmoid (XNNPACK's algorithm), a few float32 ulp from
// the portable float64 formula and from the official float32 one (the test's tolerance; NaN
// stays NaN, ±Inf give 1 and 0). It is an export_llm program's SiLU in fp32 (x·sigmoid(x),
// outside the delegates). Everything else is the portable kernel's.
func sigmoidOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxSigmoidOut(args)
	if err != nil {
		return err
	}
	if !sameF32Contiguous(a.Self, a.Out) {
		return fallback("aten::sigmoid.out")(ctx, args)
	}
	x, y := executor.Data[float32](a.Self), executor.Data[float32](a.Out)
	if badAlias(y, x) {
		return fallback("aten::sigmoid.out")(ctx, args)
	}
	chunks := (len(x) + sigmoidChunk - 1) / sigmoidChunk
	parallelFor(threads, chunks, len(x), func(lo, hi int) {
		lo, hi = lo*sigmoidChunk, min(hi*sigmoidChunk, len(x))
		gemm.Sigmoid(y[lo:hi], x[lo:hi])
	})
	return nil
}
