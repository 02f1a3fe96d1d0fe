package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
)

func init() {
	register(executor.Kernel{Name: "aten::cumsum.out", DTypes: realBoolTypes, Fn: cumsumOut})
}

// aten::cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out): the running
// sum along dim, out sized like self. The input is cast to out's dtype (which dtype, when
// given, must name) and accumulated in out's type (integer sums in int64, wrapped), so integer outs wrap as PyTorch's do.
func cumsumOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxCumsumOut(args)
	if err != nil {
		return err
	}
	self, dim, out := u.Self, u.Dim, u.Out
	if _, _, err := reduceDtype(u.Dtype, 2, out); err != nil {
		return err
	}
	set, err := reduceOneDim(self.Dim(), dim, 1, "dim")
	if err != nil {
		return err
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	p := newReducePlan(self.Sizes(), set, true)
	f, i, isF := reduceLoadAs(self, out.ScalarType())
	if isF {
		// The official kernel adds in out's type, each partial sum rounded to it, and starts from
		// the first element (a -0 start keeps a leading -0).
		ot := out.ScalarType()
		storeF64(out, reduceScan(p, f, math.Copysign(0, -1), func(acc, x float64) float64 { return roundTo(ot, acc+roundTo(ot, x)) }))
	} else {
		storeI64(out, reduceScan(p, i, 0, func(acc, x int64) int64 { return acc + x }))
	}
	return nil
}
