package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "dim_order_ops::_empty_dim_order.out", DTypes: shapeAllTypes, Fn: emptyDimOrderOut})
}

// dim_order_ops::_empty_dim_order.out(int[] size, *, int[]? dim_order=None, Tensor(a!) out): out
// resized to size, contents unspecified (Edge's empty with a dim order instead of a memory
// format). A dim_order must be out's; None means out must be contiguous.
func emptyDimOrderOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxEmptyDimOrderOut(args)
	if err != nil {
		return err
	}
	l, order, has, out := u.Size, u.DimOrder.Val, u.DimOrder.OK, u.Out
	sizes, err := shapeSizes(l, 0, "size")
	if err != nil {
		return err
	}
	have := make([]int64, out.Dim())
	for i, d := range out.DimOrder() {
		have[i] = int64(d)
	}
	if has && !slices.Equal(order, have) {
		return unbox.ArgError(1, "dim_order", "%v differs from out's dim order %v", order, have)
	}
	if !has && !out.IsContiguous() {
		return unbox.ArgError(1, "dim_order", "None means contiguous, but out has dim order %v", have)
	}
	return resize(out, sizes)
}
