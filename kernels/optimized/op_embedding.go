package optimized

import "github.com/etgo/etgo/executor"

func init() {
	register("aten::embedding.out", allDTypes, embeddingOut)
}

// aten::embedding.out(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool
// scale_grad_by_freq=False, bool sparse=False, *, Tensor(a!) out): a row gather, so bitwise the
// portable result; the fast path (contiguous weight, out of its dtype, contiguous int64 or
// int32 indices, all in range) copies rows split over threads when the call is large. Any index
// out of range, and every other case, is the portable kernel's (with its error).
func embeddingOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxEmbeddingOut(args)
	if err != nil {
		return err
	}
	w, idx, out := a.Weight, a.Indices, a.Out
	if w.Dim() != 2 || !w.IsContiguous() || out.ScalarType() != w.ScalarType() || !idx.IsContiguous() ||
		(idx.ScalarType() != executor.Int64 && idx.ScalarType() != executor.Int32) {
		return fallback("aten::embedding.out")(ctx, args)
	}
	rows := make([]int, idx.Numel())
	nrow := int64(w.Size(0))
	if idx.ScalarType() == executor.Int64 {
		for i, v := range executor.Data[int64](idx) {
			if v < 0 || v >= nrow {
				return fallback("aten::embedding.out")(ctx, args)
			}
			rows[i] = int(v)
		}
	} else {
		for i, v := range executor.Data[int32](idx) {
			if v < 0 || int64(v) >= nrow {
				return fallback("aten::embedding.out")(ctx, args)
			}
			rows[i] = int(v)
		}
	}
	sizes := append(append([]int(nil), idx.Sizes()...), w.Size(1))
	if out.Resize(sizes) != nil || !out.IsContiguous() {
		return fallback("aten::embedding.out")(ctx, args)
	}
	src, dst := w.Bytes(), out.Bytes()
	if bytesOverlap(src, dst) {
		return fallback("aten::embedding.out")(ctx, args)
	}
	rb := w.Size(1) * executor.ElementSize(w.ScalarType())
	// Copies are memory bound: threads pay off only for large ones (work counted in 16-byte units).
	parallelFor(threads, len(rows), len(dst)/16, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			r := rows[j]
			copy(dst[j*rb:(j+1)*rb], src[r*rb:(r+1)*rb])
		}
	})
	return nil
}
