package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(
		runtime.Kernel{Name: "aten::any.out", DTypes: realBoolTypes, Fn: anyOut},
		runtime.Kernel{Name: "aten::any.dims_out", DTypes: realBoolTypes, Fn: anyDimsOut},
		runtime.Kernel{Name: "aten::any.all_out", DTypes: realBoolTypes, Fn: anyAllOut},
	)
}

// The any overloads write whether any element is true (nonzero; NaN is true) into a bool or uint8 out.

// aten::any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out).
func anyOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 5); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	dim, err := intArg(args, 1, "dim")
	if err != nil {
		return err
	}
	keepdim, err := boolArg(args, 2, "keepdim")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 3, "out")
	if err != nil {
		return err
	}
	set, err := reduceOneDim(self.Dim(), dim, 1, "dim")
	if err != nil {
		return err
	}
	return reduceTruthOut(self, set, keepdim, out, 3, false)
}

// aten::any.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *, Tensor(a!) out).
// None reduces every dim; an empty list reduces none (the out is self's truth, elementwise), as
// in PyTorch and ExecuTorch.
func anyDimsOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 5); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	dims, hasDims, err := optIntListArg(args, 1, "dim")
	if err != nil {
		return err
	}
	keepdim, err := boolArg(args, 2, "keepdim")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 3, "out")
	if err != nil {
		return err
	}
	var set []bool // nil: no reduction
	if !hasDims || len(dims) > 0 {
		if set, err = reduceDimList(self.Dim(), dims, 1, "dim"); err != nil {
			return err
		}
	}
	return reduceTruthOut(self, set, keepdim, out, 3, false)
}

// aten::any.all_out(Tensor self, *, Tensor(a!) out): over every element, into a 0-d out.
func anyAllOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 3); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 1, "out")
	if err != nil {
		return err
	}
	return reduceTruthOut(self, reduceAllDims(self.Dim()), false, out, 1, false)
}
