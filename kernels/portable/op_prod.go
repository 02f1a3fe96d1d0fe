package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::prod.int_out", DTypes: realBoolTypes, Fn: prodIntOut},
		executor.Kernel{Name: "aten::prod.out", DTypes: realBoolTypes, Fn: prodOut},
	)
}

// aten::prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None,
// Tensor(a!) out): the product along dim. The input is cast to out's dtype (which dtype, when
// given, must name) and multiplied in float64 or int64 (integers wrap as in PyTorch); an empty
// product is 1.
func prodIntOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxProdIntOut(args)
	if err != nil {
		return err
	}
	self, dim, keepdim, out := u.Self, u.Dim, u.Keepdim, u.Out
	if _, _, err := reduceDtype(u.Dtype, 3, out); err != nil {
		return err
	}
	set, err := reduceOneDim(self.Dim(), dim, 1, "dim")
	if err != nil {
		return err
	}
	return prodCore(self, set, keepdim, out)
}

// aten::prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out): the product of every
// element into a 0-d out. Without dtype the out must be int64 for bool and integer input and
// self's dtype otherwise, as in ExecuTorch.
func prodOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxProdOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	_, has, err := reduceDtype(u.Dtype, 1, out)
	if err != nil {
		return err
	}
	if !has {
		want := self.ScalarType()
		if !isFloat(want) {
			want = executor.Int64
		}
		if out.ScalarType() != want {
			return unbox.ArgError(2, "out", "out is %s; the product of %s is %s", executor.DTypeName(out.ScalarType()),
				executor.DTypeName(self.ScalarType()), executor.DTypeName(want))
		}
	}
	return prodCore(self, reduceAllDims(self.Dim()), false, out)
}

func prodCore(self *executor.Tensor, set []bool, keepdim bool, out *executor.Tensor) error {
	p := newReducePlan(self.Sizes(), set, keepdim)
	if err := resize(out, p.outSizes); err != nil {
		return err
	}
	f, i, isF := reduceLoadAs(self, out.ScalarType())
	if isF {
		// The official kernel multiplies in out's type, each partial product rounded to it (a
		// float32 product overflows to Inf where a float64 one would not).
		ot := out.ScalarType()
		storeF64(out, reduceFold(p, f, 1, func(acc, x float64) float64 { return roundTo(ot, acc*roundTo(ot, x)) }))
	} else {
		storeI64(out, reduceFold(p, i, 1, func(acc, x int64) int64 { return acc * x }))
	}
	return nil
}
