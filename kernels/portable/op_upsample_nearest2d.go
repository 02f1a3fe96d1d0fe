package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
)

func init() {
	register(executor.Kernel{Name: "aten::upsample_nearest2d.vec_out", DTypes: realTypes, Fn: upsampleNearest2dVecOut})
}

// aten::upsample_nearest2d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors,
// *, Tensor(a!) out).
//
// Exactly one of output_size and scale_factors is given; scale factors give out sizes
// floor(size*scale). As PyTorch's (legacy, OpenCV-like) nearest: output index o reads input
// index min(floor(o*scale), in-1), scale being 1/scale_factor or in/out in float32, except
// that equal sizes copy and doubled sizes take o>>1.
func upsampleNearest2dVecOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxUpsampleNearest2dVecOut(args)
	if err != nil {
		return err
	}
	in, out := u.Input, u.Out
	sizes, scale, hasScale, err := poolUpsampleArgs(in, u.OutputSize, u.ScaleFactors, 1, 2)
	if err != nil {
		return err
	}
	if err := poolDtype(in, "upsample_nearest2d", realTypes); err != nil {
		return err
	}
	if err := poolSameDtype(in, out, "out"); err != nil {
		return err
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	s := in.Sizes()
	rows := make([]int, sizes[2])
	for o := range rows {
		rows[o] = poolNearestIndex(o, s[2], sizes[2], scale[0], hasScale)
	}
	cols := make([]int, sizes[3])
	for o := range cols {
		cols[o] = poolNearestIndex(o, s[3], sizes[3], scale[1], hasScale)
	}
	return poolGather(in, out, poolGather2d(s[0]*s[1], s[2], s[3], rows, cols), nil)
}

// poolNearestIndex is PyTorch's nearest_idx.
func poolNearestIndex(o, in, out int, scale float64, hasScale bool) int {
	switch {
	case out == in:
		return o
	case out == 2*in:
		return o >> 1
	}
	s := float32(in) / float32(out)
	if hasScale && scale > 0 {
		s = float32(1.0 / scale)
	}
	return min(int(math.Floor(float64(float32(float32(o)*s)))), in-1)
}
