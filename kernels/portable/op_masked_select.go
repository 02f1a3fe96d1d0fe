package portable

import "github.com/etgo/etgo/runtime"

func init() {
	register(runtime.Kernel{Name: "aten::masked_select.out", DTypes: shapeAllTypes, Fn: maskedSelectOut})
}

// aten::masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out): the elements of self where
// the bool mask (broadcast with self) is true, in row-major order, as a 1-d out sized at run time.
func maskedSelectOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 4); err != nil {
		return err
	}
	self, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	mask, err := tensorArg(args, 1, "mask")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 2, "out")
	if err != nil {
		return err
	}
	if mask.ScalarType() != runtime.Bool {
		return argErr(1, "mask", "must be bool, got %s", runtime.DTypeName(mask.ScalarType()))
	}
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	sizes, err := broadcastShape(self.Sizes(), mask.Sizes())
	if err != nil {
		return err
	}
	sv, err := shapeBroadcastView(self, sizes)
	if err != nil {
		return err
	}
	mv, err := shapeBroadcastView(mask, sizes)
	if err != nil {
		return err
	}
	// Both operands as row-major copies over the broadcast shape.
	x, err := runtime.NewTensor(self.ScalarType(), sizes...)
	if err != nil {
		return err
	}
	shapeWrite(x, self, sv)
	m, err := runtime.NewTensor(runtime.Bool, sizes...)
	if err != nil {
		return err
	}
	shapeWrite(m, mask, mv)
	keep := runtime.Data[bool](m)
	n := 0
	for _, k := range keep {
		if k {
			n++
		}
	}
	if err := resize(out, []int{n}); err != nil {
		return err
	}
	es := runtime.ElementSize(self.ScalarType())
	src, dst := x.Bytes(), out.Bytes()
	st := out.Strides()[0] * es
	j := 0
	for i, k := range keep {
		if k {
			copy(dst[j*st:j*st+es], src[i*es:i*es+es])
			j++
		}
	}
	return nil
}
