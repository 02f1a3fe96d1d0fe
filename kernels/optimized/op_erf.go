package optimized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/gemm"
)

func init() {
	register("aten::erf.out", realBoolDTypes, erfOut)
}

// erfChunk is the element count of one parallel task's share unit.
const erfChunk = 1024

// aten::erf.out(Tensor self, *, Tensor(a!) out). The fast path is float32 self and out, both
// contiguous: internal/gemm's piecewise-polynomial erf (AVX-512 where the CPU has it),
// evaluated in float64 to about 1e-11 and rounded, so each value is the portable kernel's float64 math.Erf rounded to float32 or one ulp
// from it (none of 264k swept values differ; NaN, ±Inf, ±0 as portable), threaded. Every other
// dtype and layout is the portable kernel's.
func erfOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxErfOut(args)
	if err != nil {
		return err
	}
	if !sameF32Contiguous(a.Self, a.Out) {
		return fallback("aten::erf.out")(ctx, args)
	}
	x, y := executor.Data[float32](a.Self), executor.Data[float32](a.Out)
	chunks := (len(x) + erfChunk - 1) / erfChunk
	// erf costs a few elements of a memory-bound kernel: split somewhat smaller calls.
	parallelFor(threads, chunks, 4*len(x), func(lo, hi int) {
		lo, hi = lo*erfChunk, min(hi*erfChunk, len(x))
		gemm.Erf(y[lo:hi], x[lo:hi])
	})
	return nil
}
