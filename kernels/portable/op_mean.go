package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::mean.out", DTypes: realBoolTypes, Fn: meanOut},
		executor.Kernel{Name: "aten::mean.dtype_out", DTypes: realBoolTypes, Fn: meanDtypeOut},
	)
}

// aten::mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
// Tensor(a!) out). None or [] averages every dim. Without dtype the input and out must be
// floating; with it, dtype must be floating and name out's dtype (the input may then be
// integral). As the official kernel does, the sum and the division are float32 arithmetic
// (float64 only for a float64 out).
func meanOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxMeanOut(args)
	if err != nil {
		return err
	}
	self, dims, keepdim, out := u.Self, u.Dim.Val, u.Keepdim, u.Out
	set, err := reduceDimList(self.Dim(), dims, 1, "dim")
	if err != nil {
		return err
	}
	return meanCore(self, set, keepdim, u.Dtype, 3, out, 4)
}

// aten::mean.dtype_out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out): the mean of
// every element.
func meanDtypeOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxMeanDtypeOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	return meanCore(self, reduceAllDims(self.Dim()), false, u.Dtype, 1, out, 2)
}

func meanCore(self *executor.Tensor, set []bool, keepdim bool, dtype optional[int64], dtypeIdx int, out *executor.Tensor, outIdx int) error {
	dt, has, err := reduceDtype(dtype, dtypeIdx, out)
	if err != nil {
		return err
	}
	switch {
	case has && !isFloat(dt):
		return unbox.ArgError(dtypeIdx, "dtype", "mean needs a floating dtype, got %s", executor.DTypeName(dt))
	case !has && !isFloat(self.ScalarType()):
		return unbox.ArgError(0, "self", "mean of %s needs a floating input or a floating dtype argument", executor.DTypeName(self.ScalarType()))
	case !isFloat(out.ScalarType()):
		return unbox.ArgError(outIdx, "out", "mean needs a floating out, got %s", executor.DTypeName(out.ScalarType()))
	}
	p := newReducePlan(self.Sizes(), set, keepdim)
	if err := resize(out, p.outSizes); err != nil {
		return err
	}
	at := executor.Float32 // the official accumulator: float for float, float16 and bfloat16 outs
	if out.ScalarType() == executor.Float64 {
		at = executor.Float64
	}
	n := roundTo(at, float64(p.redNumel()))
	var r []float64
	if reduceContiguousF32(self) {
		r = reduceSumIn(p, executor.Data[float32](self), at)
	} else {
		r = reduceSumIn(p, loadF64(self), at)
	}
	for i := range r {
		r[i] = roundTo(at, r[i]/n) // an empty reduction gives 0/0 = NaN, as in PyTorch
	}
	storeF64(out, r)
	return nil
}
