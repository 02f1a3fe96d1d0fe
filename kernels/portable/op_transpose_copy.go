package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::transpose_copy.int_out", DTypes: shapeAllTypes, Fn: transposeCopyOut})
}

// aten::transpose_copy.int_out(Tensor self, int dim0, int dim1, *, Tensor(a!) out): self with
// dimensions dim0 and dim1 swapped.
func transposeCopyOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 5); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	d0, err := intArg(args, 1, "dim0")
	if err != nil {
		return err
	}
	d1, err := intArg(args, 2, "dim1")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 3, "out")
	if err != nil {
		return err
	}
	a, err := normDim(d0, self.Dim(), 1, "dim0")
	if err != nil {
		return err
	}
	b, err := normDim(d1, self.Dim(), 2, "dim1")
	if err != nil {
		return err
	}
	return shapeTranspose(self, a, b, out)
}

// shapeTranspose copies self with dimensions a and b (valid, or 0 for a 0-d self) swapped.
func shapeTranspose(self *runtime.Tensor, a, b int, out *runtime.Tensor) error {
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	v := shapeViewOf(self)
	if self.Dim() > 0 {
		v.sizes[a], v.sizes[b] = v.sizes[b], v.sizes[a]
		v.strides[a], v.strides[b] = v.strides[b], v.strides[a]
	}
	if err := resize(out, v.sizes); err != nil {
		return err
	}
	shapeWrite(out, self, v)
	return nil
}
