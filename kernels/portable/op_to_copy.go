package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::_to_copy.out", DTypes: realBoolTypes, Fn: toCopyOut})
}

// aten::_to_copy.out(Tensor self, *, bool non_blocking=False, MemoryFormat? memory_format=None,
// Tensor(a!) out): self converted to out's dtype (C++ casts: floats truncate toward zero into
// integers, integers wrap, non-zero is true). Same-dtype copies are bit-exact.
func toCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxToCopyOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	if u.NonBlocking {
		// ExecuTorch copies synchronously only (copy_ops_util: non_blocking == false).
		return unbox.ArgError(1, "non_blocking", "must be false (copies are blocking)")
	}
	if err := shapeMemoryFormat(u.MemoryFormat, 2, out); err != nil {
		return err
	}
	if err := shapeConvertible(self, out); err != nil {
		return err
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	shapeConvertInto(out, self)
	return nil
}

// shapeConvertible refuses dtypes the conversion kernels do not handle.
func shapeConvertible(self, out *executor.Tensor) error {
	if self.ScalarType() == out.ScalarType() {
		return nil
	}
	for _, t := range []*executor.Tensor{self, out} {
		if !isFloat(t.ScalarType()) && !isIntegral(t.ScalarType()) && t.ScalarType() != executor.Bool {
			return unbox.ArgError(0, "self", "cannot convert %s to %s", executor.DTypeName(self.ScalarType()), executor.DTypeName(out.ScalarType()))
		}
	}
	return nil
}
