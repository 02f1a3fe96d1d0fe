package optimized

import (
	"unsafe"

	"github.com/etgo/etgo/executor"
)

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
	if inner == 4 && interleave32(ts, d, dst, outer) {
		return true
	}
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

// interleave32 is the cat of 4-byte elements along the last dim where every input adds one
// element per row: [..., 1] tensors interleaved, as a rotary embedding's halves are
// (stack/cat of [..., 32, 1] pairs into [..., 32, 2]). A copy call per element costs many
// times the element, so this is one loop over typed views instead. It reports false (doing
// nothing) for other shapes or misaligned buffers.
func interleave32(ts []*executor.Tensor, d int, dst []byte, outer int) bool {
	n := len(ts)
	if n > 8 || uintptr(unsafe.Pointer(unsafe.SliceData(dst)))%4 != 0 || len(dst) != 4*n*outer {
		return false
	}
	var src [8][]uint32
	for i, t := range ts {
		b := t.Bytes()
		if t.Size(d) != 1 || len(b) != 4*outer || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%4 != 0 {
			return false
		}
		src[i] = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), outer)
	}
	out := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(dst))), n*outer)
	if n == 2 {
		a, b := src[0], src[1]
		for o := range outer {
			out[2*o], out[2*o+1] = a[o], b[o]
		}
		return true
	}
	for o := range outer {
		for i := range n {
			out[o*n+i] = src[i][o]
		}
	}
	return true
}
