package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::slice_scatter.out", DTypes: shapeAllTypes, Fn: sliceScatterOut},
		executor.Kernel{Name: "aten::select_scatter.out", DTypes: shapeAllTypes, Fn: selectScatterOut},
	)
}

// aten::slice_scatter.out(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None,
// SymInt step=1, *, Tensor(a!) out): self with the slice start:end:step along dim replaced by
// src, whose sizes must equal the slice's. start and end clamp as Python slicing does.
func sliceScatterOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxSliceScatterOut(args)
	if err != nil {
		return err
	}
	self, src, out := a.Self, a.Src, a.Out
	if err := scatterSameDtype(self, src); err != nil {
		return err
	}
	d, startV, hasStart, endV, hasEnd, step := a.Dim, a.Start.Val, a.Start.OK, a.End.Val, a.End.OK, a.Step
	if self.Dim() == 0 {
		return unbox.ArgError(0, "self", "slice_scatter cannot be applied to a 0-d tensor")
	}
	dim, err := unbox.NormDim(d, self.Dim(), 2, "dim")
	if err != nil {
		return err
	}
	if step <= 0 {
		return unbox.ArgError(5, "step", "step must be positive, got %d", step)
	}
	n := int64(self.Size(dim))
	clampIndex := func(v int64, has bool, def int64) int64 {
		if !has {
			return def
		}
		if v < 0 {
			v += n
		}
		return min(max(v, 0), n)
	}
	start, end := clampIndex(startV, hasStart, 0), clampIndex(endV, hasEnd, n)
	count := int64(0)
	if end > start {
		count = (end - start + step - 1) / step
	}
	want := slices.Clone(self.Sizes())
	want[dim] = int(count)
	if !slices.Equal(src.Sizes(), want) {
		return unbox.ArgError(1, "src", "sizes %v, want %v (the slice of self it replaces)", src.Sizes(), want)
	}
	if err := shapeCopySame(self, out); err != nil {
		return err
	}
	dst := slices.Clone(out.Strides())
	base := int(start) * dst[dim]
	dst[dim] *= int(step)
	shapeCopyView(out, base, dst, src, shapeViewOf(src))
	return nil
}

// aten::select_scatter.out(Tensor self, Tensor src, int dim, SymInt index, *, Tensor(a!) out):
// self with the slice at index along dim (which src lacks) replaced by src.
func selectScatterOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxSelectScatterOut(args)
	if err != nil {
		return err
	}
	self, src, out := a.Self, a.Src, a.Out
	if err := scatterSameDtype(self, src); err != nil {
		return err
	}
	d, index := a.Dim, a.Index
	if self.Dim() == 0 {
		return unbox.ArgError(0, "self", "select_scatter cannot be applied to a 0-d tensor")
	}
	dim, err := unbox.NormDim(d, self.Dim(), 2, "dim")
	if err != nil {
		return err
	}
	ix, err := shapeWrapIndex(index, self.Size(dim), 3, "index")
	if err != nil {
		return err
	}
	want := slices.Delete(slices.Clone(self.Sizes()), dim, dim+1)
	if !slices.Equal(src.Sizes(), want) {
		return unbox.ArgError(1, "src", "sizes %v, want %v (self without dimension %d)", src.Sizes(), want, dim)
	}
	if err := shapeCopySame(self, out); err != nil {
		return err
	}
	dst := out.Strides()
	shapeCopyView(out, ix*dst[dim], slices.Delete(slices.Clone(dst), dim, dim+1), src, shapeViewOf(src))
	return nil
}

// scatterSameDtype refuses a src (argument 1) whose dtype is not self's.
func scatterSameDtype(self, src *executor.Tensor) error {
	if src.ScalarType() != self.ScalarType() {
		return unbox.ArgError(1, "src", "dtype %s, want self's %s", executor.DTypeName(src.ScalarType()), executor.DTypeName(self.ScalarType()))
	}
	return nil
}
