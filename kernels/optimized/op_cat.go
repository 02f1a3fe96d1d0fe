package optimized

import "github.com/etgo/etgo/executor"

func init() {
	register("aten::cat.out", allDTypes, catOut)
}

// aten::cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out): a copy, so bitwise the portable
// result. The fast path is every tensor of out's dtype, contiguous, of out's rank and sizes but
// along dim, none a skipped [0]-shaped one: per outer index, each input's block is one copy,
// split over threads when the call is large. Everything else is the portable kernel's.
func catOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxCatOut(args)
	if err != nil {
		return err
	}
	if !catFast(threads, a.Tensors, a.Dim, a.Out) {
		return fallback("aten::cat.out")(ctx, args)
	}
	return nil
}

func catFast(threads int, ts []*executor.Tensor, dim int64, out *executor.Tensor) bool {
	if len(ts) == 0 || ts[0].Dim() == 0 {
		return false
	}
	ref := ts[0]
	rank := ref.Dim()
	if dim < 0 {
		dim += int64(rank)
	}
	if dim < 0 || dim >= int64(rank) {
		return false
	}
	d := int(dim)
	sizes := append([]int(nil), ref.Sizes()...)
	sizes[d] = 0
	for _, t := range ts {
		if t.ScalarType() != out.ScalarType() || !t.IsContiguous() || t.Dim() != rank || (rank == 1 && t.Size(0) == 0) {
			return false
		}
		for k := 0; k < rank; k++ {
			if k != d && t.Size(k) != ref.Size(k) {
				return false
			}
		}
		sizes[d] += t.Size(d)
	}
	if out.Resize(sizes) != nil || !out.IsContiguous() {
		return false
	}
	dst := out.Bytes()
	for _, t := range ts {
		if bytesOverlap(dst, t.Bytes()) {
			return false
		}
	}
	if len(dst) == 0 {
		return true
	}
	es := executor.ElementSize(out.ScalarType())
	outer, inner := 1, es
	for k := 0; k < d; k++ {
		outer *= sizes[k]
	}
	for k := d + 1; k < rank; k++ {
		inner *= sizes[k]
	}
	row := sizes[d] * inner // bytes of out per outer index
	// Copies are memory bound: threads pay off only for large ones (work counted in 16-byte units).
	parallelFor(threads, outer, len(dst)/16, func(lo, hi int) {
		for o := lo; o < hi; o++ {
			off := o * row
			for _, t := range ts {
				blk := t.Size(d) * inner
				copy(dst[off:off+blk], t.Bytes()[o*blk:(o+1)*blk])
				off += blk
			}
		}
	})
	return true
}
