package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::scatter_add.out", DTypes: shapeAllTypes, Fn: scatterAddOut})
}

// aten::scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out): self
// with, for dim 1, out[i][index[i][j][k]][k] += src[i][j][k] (likewise for any dim), for every
// position of the int64 tensor index, in row-major order; the operands are checked as for
// scatter.src_out. Each addition is rounded to (integers wrap in) self's dtype, as the
// official kernel's `out += src`; bool adds as logical or.
//
// A 0-d self follows the official kernel, which adds index.size(0) times src's first element;
// eager torch adds the first index.size(0) elements of src instead (torch.scatter_add of 10.0
// with index [0, 0, 0] and src [1, 2, 3] is 16.0; the official kernel and this one give 13.0).
func scatterAddOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxScatterAddOut(args)
	if err != nil {
		return err
	}
	self, src, out := a.Self, a.Src, a.Out
	dst, from, err := scatterArgs(self, a.Dim, a.Index, src, out)
	if err != nil {
		return err
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	dtype := self.ScalarType()
	// The official 0-d case: one addition of count·src[0], the count cast to self's dtype.
	count := len(dst) // a 0-d self takes an index of rank 0 or 1
	zeroD := self.Dim() == 0 && count > 0
	if isFloat(dtype) {
		acc, add := loadF64(self), loadF64(src)
		if zeroD {
			acc[0] = roundTo(dtype, acc[0]+roundTo(dtype, roundTo(dtype, float64(count))*add[0]))
			dst = nil
		}
		for k, p := range dst {
			acc[p] = roundTo(dtype, acc[p]+add[from[k]])
		}
		storeF64(out, acc)
		return nil
	}
	acc, add := loadI64(self), loadI64(src)
	if zeroD {
		acc[0] = wrapInt(dtype, acc[0]+int64(count)*add[0])
		dst = nil
	}
	for k, p := range dst {
		acc[p] = wrapInt(dtype, acc[p]+add[from[k]])
	}
	storeI64(out, acc)
	return nil
}
