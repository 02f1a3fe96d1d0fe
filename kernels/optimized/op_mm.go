package optimized

import "github.com/etgo/etgo/executor"

func init() {
	register("aten::mm.out", realDTypes, mmOut)
}

var realDTypes = []executor.ScalarType{executor.Float32, executor.Float64, executor.Float16, executor.BFloat16,
	executor.Uint8, executor.Int8, executor.Int16, executor.Int32, executor.Int64}

// aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out): float32 contiguous products on
// internal/gemm's packed GEMM (mat2 packed per call), threaded by row tiles; within matmulTol of
// the portable product. Everything else is the portable kernel's.
func mmOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxMmOut(args)
	if err != nil {
		return err
	}
	_, m, k, n, ok := matmulF32(a.Self, a.Mat2, a.Out, 2)
	if !ok {
		return fallback("aten::mm.out")(ctx, args)
	}
	return gemmBatch(threads, 1, m, k, n, executor.Data[float32](a.Self), executor.Data[float32](a.Mat2), nil, executor.Data[float32](a.Out))
}
