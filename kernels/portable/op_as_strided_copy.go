package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::as_strided_copy.out", DTypes: shapeAllTypes, Fn: asStridedCopyOut})
}

// aten::as_strided_copy.out(Tensor self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None,
// *, Tensor(a!) out): out[i0, i1, ...] = storage[storage_offset + Σ ik·stride[k]], where storage
// is self's memory (its elements in physical order). size and stride have the same length,
// strides and the offset are non-negative, and every element addressed lies within self's
// elements (no check when size has a zero). out has sizes size and self's dtype.
//
// The official kernel refuses a self whose dim order is not the default one; eager torch reads
// the underlying storage whatever the layout, and so does this kernel (self's memory in physical
// order is that storage).
func asStridedCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxAsStridedCopyOut(args)
	if err != nil {
		return err
	}
	self, sizeL, strideL, offset, out := u.Self, u.Size, u.Stride, u.StorageOffset.Val, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	sizes, err := shapeSizes(sizeL, 1, "size")
	if err != nil {
		return err
	}
	if len(strideL) != len(sizeL) {
		return unbox.ArgError(2, "stride", "has %d entries, size has %d", len(strideL), len(sizeL))
	}
	for k, s := range strideL {
		if s < 0 {
			return unbox.ArgError(2, "stride", "stride %d at dimension %d is negative", s, k)
		}
	}
	if offset < 0 {
		return unbox.ArgError(3, "storage_offset", "offset %d is negative", offset)
	}
	strides := make([]int, len(sizes))
	if shapeNumel(sizes) > 0 {
		// The last element addressed, offset + Σ stride·(size-1), must be below self's numel;
		// computed against the remaining room so that nothing overflows.
		room := int64(self.Numel()) - 1 - offset
		if room < 0 {
			return unbox.ArgError(3, "storage_offset", "offset %d is out of bounds for self's %d elements", offset, self.Numel())
		}
		for k, n := range sizes {
			if n == 1 {
				continue // the stride of a size-1 dimension is never used
			}
			if strideL[k] > room/int64(n-1) {
				return unbox.ArgError(2, "stride", "size %v with stride %v from offset %d reaches beyond self's %d elements",
					sizeL, strideL, offset, self.Numel())
			}
			room -= strideL[k] * int64(n-1)
			strides[k] = int(strideL[k])
		}
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	if out.Numel() == 0 {
		return nil
	}
	shapeWrite(out, self, shapeView{sizes: sizes, strides: strides, base: int(offset)})
	return nil
}
