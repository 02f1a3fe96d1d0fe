package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::_to_copy.out", DTypes: realBoolTypes, Fn: toCopyOut})
}

// aten::_to_copy.out(Tensor self, *, bool non_blocking=False, MemoryFormat? memory_format=None,
// Tensor(a!) out): self converted to out's dtype (C++ casts: floats truncate toward zero into
// integers, integers wrap, non-zero is true). Same-dtype copies are bit-exact.
func toCopyOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	u, err := unboxToCopyOut(args)
	if err != nil {
		return err
	}
	self, out := u.Self, u.Out
	if u.NonBlocking {
		// ExecuTorch copies synchronously only (copy_ops_util: non_blocking == false).
		return argErr(1, "non_blocking", "must be false (copies are blocking)")
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
func shapeConvertible(self, out *runtime.Tensor) error {
	if self.ScalarType() == out.ScalarType() {
		return nil
	}
	for _, t := range []*runtime.Tensor{self, out} {
		if !isFloat(t.ScalarType()) && !isIntegral(t.ScalarType()) && t.ScalarType() != runtime.Bool {
			return argErr(0, "self", "cannot convert %s to %s", runtime.DTypeName(self.ScalarType()), runtime.DTypeName(out.ScalarType()))
		}
	}
	return nil
}
