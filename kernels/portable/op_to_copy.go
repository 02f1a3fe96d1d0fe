package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::_to_copy.out", DTypes: realBoolTypes, Fn: toCopyOut})
}

// aten::_to_copy.out(Tensor self, *, bool non_blocking=False, MemoryFormat? memory_format=None,
// Tensor(a!) out): self converted to out's dtype (C++ casts: floats truncate toward zero into
// integers, integers wrap, non-zero is true). Same-dtype copies are bit-exact.
func toCopyOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 5); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	if nb, err := boolArg(args, 1, "non_blocking"); err != nil {
		return err
	} else if nb {
		// ExecuTorch copies synchronously only (copy_ops_util: non_blocking == false).
		return argErr(1, "non_blocking", "must be false (copies are blocking)")
	}
	out, err := tensorArg(args, 3, "out")
	if err != nil {
		return err
	}
	if err := shapeMemoryFormat(args, 2, out); err != nil {
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
