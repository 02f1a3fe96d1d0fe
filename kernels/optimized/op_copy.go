package optimized

import "github.com/etgo/etgo/executor"

func init() {
	register("aten::copy.out", realBoolDTypes, copyOut)
}

// aten::copy.out(Tensor self, Tensor src, bool non_blocking=False, *, Tensor(a!) out): the fast
// path is src of self's sizes and dtype (which out must have), both contiguous: one byte copy
// (Go's copy handles overlap), threaded only when large. Bitwise the portable result; a
// broadcast, a conversion or strides are the portable kernel's.
func copyOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxCopyOut(args)
	if err != nil {
		return err
	}
	self, src, out := a.Self, a.Src, a.Out
	if src.ScalarType() != self.ScalarType() || out.ScalarType() != self.ScalarType() || !src.IsContiguous() ||
		!sameSizes(src.Sizes(), self.Sizes()) || out.Resize(self.Sizes()) != nil || !out.IsContiguous() {
		return fallback("aten::copy.out")(ctx, args)
	}
	s, d := src.Bytes(), out.Bytes()
	if bytesOverlap(s, d) {
		copy(d, s) // one memmove, which an overlapping split over threads would not be
		return nil
	}
	const chunk = 1 << 16
	chunks := (len(d) + chunk - 1) / chunk
	// Copies are memory bound: threads pay off only for large ones (work counted in 16-byte units).
	parallelFor(threads, chunks, len(d)/16, func(lo, hi int) {
		lo, hi = lo*chunk, min(hi*chunk, len(d))
		copy(d[lo:hi], s[lo:hi])
	})
	return nil
}
