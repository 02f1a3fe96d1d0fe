package optimized

import "github.com/etgo/etgo/executor"

func init() {
	register("aten::bmm.out", realDTypes, bmmOut)
}

// aten::bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out): mm per batch (attention's scores
// and context), float32 contiguous on the packed GEMM, threaded over batches and row tiles;
// within matmulTol of the portable product. Everything else is the portable kernel's.
func bmmOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxBmmOut(args)
	if err != nil {
		return err
	}
	batch, m, k, n, ok := matmulF32(a.Self, a.Mat2, a.Out, 3)
	if !ok {
		return fallback("aten::bmm.out")(ctx, args)
	}
	return gemmBatch(threads, batch, m, k, n, executor.Data[float32](a.Self), executor.Data[float32](a.Mat2), nil, executor.Data[float32](a.Out))
}
