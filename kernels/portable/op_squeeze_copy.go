package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::squeeze_copy.out", DTypes: shapeAllTypes, Fn: squeezeCopyOut},
		executor.Kernel{Name: "aten::squeeze_copy.dim_out", DTypes: shapeAllTypes, Fn: squeezeCopyDimOut},
		executor.Kernel{Name: "aten::squeeze_copy.dims_out", DTypes: shapeAllTypes, Fn: squeezeCopyDimsOut},
	)
}

// aten::squeeze_copy.out(Tensor self, *, Tensor(a!) out): self without its size-1 dimensions.
func squeezeCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxSqueezeCopyOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	drop := make([]bool, self.Dim())
	for d := range drop {
		drop[d] = true
	}
	return shapeSqueeze(self, drop, out)
}

// aten::squeeze_copy.dim_out(Tensor self, int dim, *, Tensor(a!) out): self without dimension
// dim if its size is 1 (unchanged otherwise).
func squeezeCopyDimOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxSqueezeCopyDimOut(args)
	if err != nil {
		return err
	}
	self, d, out := u.Self, u.Dim, u.Out
	dim, err := unbox.NormDim(d, self.Dim(), 1, "dim")
	if err != nil {
		return err
	}
	drop := make([]bool, self.Dim())
	if self.Dim() > 0 {
		drop[dim] = true
	}
	return shapeSqueeze(self, drop, out)
}

// aten::squeeze_copy.dims_out(Tensor self, int[] dim, *, Tensor(a!) out): self without those
// of the listed dimensions whose size is 1. A dimension may be listed once.
func squeezeCopyDimsOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxSqueezeCopyDimsOut(args)
	if err != nil {
		return err
	}
	self, dims, out := u.Self, u.Dim, u.Out
	drop := make([]bool, max(self.Dim(), 1))
	for _, d := range dims {
		n, err := unbox.NormDim(d, self.Dim(), 1, "dim")
		if err != nil {
			return err
		}
		if drop[n] {
			return unbox.ArgError(1, "dim", "dimension %d appears more than once", d)
		}
		drop[n] = true
	}
	return shapeSqueeze(self, drop[:self.Dim()], out)
}

// shapeSqueeze copies self into out without the dimensions marked in drop that have size 1.
func shapeSqueeze(self *executor.Tensor, drop []bool, out *executor.Tensor) error {
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	sizes := []int{}
	for d, s := range self.Sizes() {
		if !drop[d] || s != 1 {
			sizes = append(sizes, s)
		}
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	shapeReshape(out, self)
	return nil
}
