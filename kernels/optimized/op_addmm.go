package optimized

import "github.com/etgo/etgo/executor"

func init() {
	register("aten::addmm.out", realDTypes, addmmOut)
}

// aten::addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1,
// Tensor(a!) out): a linear layer. float32 contiguous on the packed GEMM; with beta = alpha = 1
// and self a bias row ([n] or [1, n]) the bias initialises the accumulators (the kernel's free
// bias add), else the product is combined with self afterwards exactly as the portable kernel
// does (alpha·c + beta·self in float32; beta 0 ignores self, NaN included). Within matmulTol of
// the portable result. Everything else is the portable kernel's.
func addmmOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxAddmmOut(args)
	if err != nil {
		return err
	}
	self := a.Self
	if a.Beta.IsBool || a.Alpha.IsBool || self.ScalarType() != executor.Float32 || !self.IsContiguous() {
		return fallback("aten::addmm.out")(ctx, args)
	}
	_, m, k, n, ok := matmulF32(a.Mat1, a.Mat2, a.Out, 2)
	if !ok {
		return fallback("aten::addmm.out")(ctx, args)
	}
	shape, bok := broadcast(self.Sizes(), []int{m, n})
	sv, z := executor.Data[float32](self), executor.Data[float32](a.Out)
	if !bok || !sameSizes(shape, []int{m, n}) || overlap(z, sv) {
		return fallback("aten::addmm.out")(ctx, args)
	}
	x, y := executor.Data[float32](a.Mat1), executor.Data[float32](a.Mat2)
	alpha, beta := float32(a.Alpha.F), float32(a.Beta.F)
	if alpha == 1 && beta == 1 && len(sv) == n && (self.Dim() == 1 || (self.Dim() == 2 && self.Size(0) == 1)) {
		return gemmBatch(threads, 1, m, k, n, x, y, sv, z)
	}
	if err := gemmBatch(threads, 1, m, k, n, x, y, nil, z); err != nil {
		return err
	}
	if beta == 0 {
		if alpha != 1 {
			for i := range z {
				z[i] *= alpha
			}
		}
		return nil
	}
	st := bstrides(self.Sizes(), []int{m, n})
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			z[i*n+j] = alpha*z[i*n+j] + beta*sv[i*st[0]+j*st[1]]
		}
	}
	return nil
}
