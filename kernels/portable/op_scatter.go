package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::scatter.src_out", DTypes: shapeAllTypes, Fn: scatterSrcOut},
		executor.Kernel{Name: "aten::scatter.value_out", DTypes: shapeAllTypes, Fn: scatterValueOut},
	)
}

// aten::scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out): self
// with, for dim 1, out[i][index[i][j][k]][k] = src[i][j][k] (likewise for any dim), for every
// position of the int64 tensor index. self, index and src have the same rank (0-d counts as
// 1-d); index is no larger than src in any dimension, nor than self except along dim; each
// index is in [0, self.size(dim)). When indices repeat, the last position in index's row-major
// order wins. src has self's dtype; out has self's dtype and sizes.
func scatterSrcOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxScatterSrcOut(args)
	if err != nil {
		return err
	}
	self, src, out := a.Self, a.Src, a.Out
	dst, from, err := scatterArgs(self, a.Dim, a.Index, src, out)
	if err != nil {
		return err
	}
	if err := shapeCopySame(self, out); err != nil {
		return err
	}
	shapeGatherElems(out, scatterOffsets(out, dst), src, scatterOffsets(src, from))
	return nil
}

// aten::scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out):
// self with value written at out[i][index[i][j][k]][k] (for dim 1) for every position of the
// int64 tensor index, which has self's rank (0-d counts as 1-d) and is no larger than self
// except along dim. value must fit self's dtype.
func scatterValueOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxScatterValueOut(args)
	if err != nil {
		return err
	}
	self, out := a.Self, a.Out
	dst, _, err := scatterArgs(self, a.Dim, a.Index, nil, out)
	if err != nil {
		return err
	}
	v, err := shapeFillValue(a.Value, self.ScalarType(), 3, "value")
	if err != nil {
		return err
	}
	if err := shapeCopySame(self, out); err != nil {
		return err
	}
	shapeGatherElems(out, scatterOffsets(out, dst), v, make([]int, len(dst)))
	return nil
}

// scatterArgs checks src (when not nil) and out against self (both must have its dtype) and
// plans the scatter along dim d (scatterPlan).
func scatterArgs(self *executor.Tensor, d int64, index, src, out *executor.Tensor) (dst, from []int, err error) {
	if src != nil && src.ScalarType() != self.ScalarType() {
		return nil, nil, unbox.ArgError(3, "src", "dtype %s, want self's %s", executor.DTypeName(src.ScalarType()), executor.DTypeName(self.ScalarType()))
	}
	if err := shapeSameDtype(self, out); err != nil {
		return nil, nil, err
	}
	return scatterPlan(self, d, index, src)
}

// scatterPlan validates a scatter's dim and index against self (and src, when not nil) and
// returns, for each element of index in row-major order, the row-major position in self it
// writes to and the row-major position in src it reads from (nil without src). 0-d tensors
// count as 1-d tensors of one element.
func scatterPlan(self *executor.Tensor, d int64, index, src *executor.Tensor) (dst, from []int, err error) {
	dim, err := unbox.NormDim(d, self.Dim(), 1, "dim")
	if err != nil {
		return nil, nil, err
	}
	if index.ScalarType() != executor.Int64 {
		return nil, nil, unbox.ArgError(2, "index", "index tensor must be int64, got %s", executor.DTypeName(index.ScalarType()))
	}
	if index.Numel() == 0 {
		return nil, nil, nil
	}
	one := func(s []int) []int {
		if len(s) == 0 {
			return []int{1}
		}
		return s
	}
	ssizes, isizes := one(self.Sizes()), one(index.Sizes())
	if len(isizes) != len(ssizes) {
		return nil, nil, unbox.ArgError(2, "index", "has %d dimensions, self has %d", index.Dim(), self.Dim())
	}
	for k := range isizes {
		if k != dim && isizes[k] > ssizes[k] {
			return nil, nil, unbox.ArgError(2, "index", "size %d at dimension %d exceeds self's %d", isizes[k], k, ssizes[k])
		}
	}
	if src != nil {
		srcSizes := one(src.Sizes())
		if len(srcSizes) != len(ssizes) {
			return nil, nil, unbox.ArgError(3, "src", "has %d dimensions, self has %d", src.Dim(), self.Dim())
		}
		for k := range isizes {
			if isizes[k] > srcSizes[k] {
				return nil, nil, unbox.ArgError(2, "index", "size %d at dimension %d exceeds src's %d", isizes[k], k, srcSizes[k])
			}
		}
		from = shapeOffsets(isizes, shapeContiguousStrides(srcSizes), 0)
	}
	str := shapeContiguousStrides(ssizes)
	step := str[dim]
	str[dim] = 0
	dst = shapeOffsets(isizes, str, 0)
	for k, v := range loadI64(index) {
		if v < 0 || v >= int64(ssizes[dim]) {
			return nil, nil, unbox.ArgError(2, "index", "index %d is out of bounds for dimension %d with size %d", v, dim, ssizes[dim])
		}
		dst[k] += int(v) * step
	}
	return dst, from, nil
}

// scatterOffsets maps row-major positions in t to element offsets through its strides.
func scatterOffsets(t *executor.Tensor, pos []int) []int {
	if t.IsContiguous() {
		return pos
	}
	offs := shapeOffsets(slices.Clone(t.Sizes()), t.Strides(), 0)
	res := make([]int, len(pos))
	for k, p := range pos {
		res[k] = offs[p]
	}
	return res
}
