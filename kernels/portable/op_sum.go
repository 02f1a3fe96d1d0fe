package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::sum.IntList_out", DTypes: realBoolTypes, Fn: sumIntListOut})
}

// aten::sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
// Tensor(a!) out). None or [] sums every dim. The input is cast to out's dtype (which dtype, when
// given, must name) and accumulated in float64 or int64, so bool and integer sums count exactly
// and a narrower integer out wraps as PyTorch's does.
func sumIntListOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxSumIntListOut(args)
	if err != nil {
		return err
	}
	self, dims, keepdim, out := u.Self, u.Dim.Val, u.Keepdim, u.Out
	if _, _, err := reduceDtype(u.Dtype, 3, out); err != nil {
		return err
	}
	set, err := reduceDimList(self.Dim(), dims, 1, "dim")
	if err != nil {
		return err
	}
	p := newReducePlan(self.Sizes(), set, keepdim)
	if err := resize(out, p.outSizes); err != nil {
		return err
	}
	if _, half := halfRounder(self.ScalarType()); half && out.ScalarType() == executor.Float32 {
		// The official kernel sums a float16/bfloat16 input into a float out in float,
		// element by element in the reduction's order.
		storeF64(out, reduceFold(p, loadF64(self), 0, func(acc, x float64) float64 { return float64(float32(acc) + float32(x)) }))
		return nil
	}
	if isFloat(out.ScalarType()) {
		storeF64(out, reduceSumF64(p, self))
		return nil
	}
	_, i, _ := reduceLoadAs(self, out.ScalarType())
	storeI64(out, reduceFold(p, i, 0, func(acc, x int64) int64 { return acc + x }))
	return nil
}
