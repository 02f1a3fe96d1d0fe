package optimized

import "github.com/etgo/etgo/runtime"

func init() {
	register("aten::mm.out", realDTypes, mmOut)
}

var realDTypes = []runtime.ScalarType{runtime.Float32, runtime.Float64, runtime.Float16, runtime.BFloat16,
	runtime.Uint8, runtime.Int8, runtime.Int16, runtime.Int32, runtime.Int64}

// aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out): float32 contiguous products on
// internal/gemm's packed GEMM (mat2 packed per call), threaded by row tiles; within matmulTol of
// the portable product. Everything else is the portable kernel's.
func mmOut(ctx *runtime.KernelContext, args []*runtime.EValue, threads int) error {
	a, err := unboxMmOut(args)
	if err != nil {
		return err
	}
	_, m, k, n, ok := matmulF32(a.Self, a.Mat2, a.Out, 2)
	if !ok {
		return fallback("aten::mm.out")(ctx, args)
	}
	return gemmBatch(threads, 1, m, k, n, runtime.Data[float32](a.Self), runtime.Data[float32](a.Mat2), nil, runtime.Data[float32](a.Out))
}
