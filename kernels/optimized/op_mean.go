package optimized

import "github.com/etgo/etgo/executor"

func init() {
	register("aten::mean.out", realBoolDTypes, meanOut)
}

// aten::mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
// Tensor(a!) out). The fast path is the official kernel's own (op_mean.cpp): float32 in and
// out, contiguous, one dim that is the last; each row summed in order in float32 and divided by
// its length in float32, which is the official result bit for bit (RMSNorm's mean(x·x, -1)).
// The portable kernel sums the same way, so the two agree bit for bit (the test's tolerance is
// none). Everything else is the portable kernel's, errors included.
func meanOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxMeanOut(args)
	if err != nil {
		return err
	}
	self, out := a.Self, a.Out
	rank := self.Dim()
	if !a.Dim.OK || len(a.Dim.Val) != 1 || (a.Dtype.OK && a.Dtype.Val != int64(executor.Float32)) ||
		self.ScalarType() != executor.Float32 || out.ScalarType() != executor.Float32 || rank == 0 ||
		!self.IsContiguous() || self.Numel() == 0 {
		return fallback("aten::mean.out")(ctx, args)
	}
	d := a.Dim.Val[0]
	if d < 0 {
		d += int64(rank)
	}
	if d != int64(rank-1) {
		return fallback("aten::mean.out")(ctx, args)
	}
	sizes := append([]int(nil), self.Sizes()...)
	if a.Keepdim {
		sizes[rank-1] = 1
	} else {
		sizes = sizes[:rank-1]
	}
	if out.Resize(sizes) != nil || !out.IsContiguous() {
		return fallback("aten::mean.out")(ctx, args)
	}
	x, y := executor.Data[float32](self), executor.Data[float32](out)
	n := self.Sizes()[rank-1]
	if badAlias(y, x) {
		return fallback("aten::mean.out")(ctx, args)
	}
	denom := float32(n)
	parallelFor(threads, len(y), len(x), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var acc float32
			for _, v := range x[i*n : (i+1)*n] {
				acc += v
			}
			y[i] = acc / denom
		}
	})
	return nil
}
