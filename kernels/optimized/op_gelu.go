package optimized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/gemm"
)

func init() {
	register("aten::gelu.out", floatDTypes, geluOut)
}

// geluChunk is the element count of one parallel task's share unit, so tasks stay a multiple of
// the vector width and the tails are few.
const geluChunk = 1024

// aten::gelu.out(Tensor self, *, str approximate="none", Tensor(a!) out). The fast path is
// float32, contiguous, approximate "none": internal/gemm's vectorised XNNPACK rational erf
// approximation, a few float32 ulp from the portable float64 erf (the test's tolerance; NaN
// stays NaN, gelu(+Inf) = +Inf and gelu(-Inf) = NaN in both). "tanh" and every other case are
// the portable kernel's.
func geluOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxGeluOut(args)
	if err != nil {
		return err
	}
	if a.Approximate != "none" || !sameF32Contiguous(a.Self, a.Out) {
		return fallback("aten::gelu.out")(ctx, args)
	}
	x, y := executor.Data[float32](a.Self), executor.Data[float32](a.Out)
	chunks := (len(x) + geluChunk - 1) / geluChunk
	parallelFor(threads, chunks, len(x), func(lo, hi int) {
		lo, hi = lo*geluChunk, min(hi*geluChunk, len(x))
		gemm.Gelu(y[lo:hi], x[lo:hi])
	})
	return nil
}

// sameF32Contiguous reports whether self and out are contiguous float32 after out is sized like
// self (an elementwise unary fast path). False leaves the call to the portable kernel.
func sameF32Contiguous(self, out *executor.Tensor) bool {
	if self.ScalarType() != executor.Float32 || out.ScalarType() != executor.Float32 || !self.IsContiguous() {
		return false
	}
	return out.Resize(self.Sizes()) == nil && out.IsContiguous()
}
