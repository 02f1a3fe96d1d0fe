package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::masked_select.out", DTypes: shapeAllTypes, Fn: maskedSelectOut})
}

// aten::masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out): the elements of self where
// the bool mask (broadcast with self) is true, in row-major order, as a 1-d out sized at run time.
func maskedSelectOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxMaskedSelectOut(args)
	if err != nil {
		return err
	}
	self, mask, out := u.Self, u.Mask, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	x, keep, err := shapeMaskedOperands(self, mask)
	if err != nil {
		return err
	}
	n := 0
	for _, k := range keep {
		if k {
			n++
		}
	}
	if err := resize(out, []int{n}); err != nil {
		return err
	}
	es := executor.ElementSize(self.ScalarType())
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

// shapeMaskedOperands broadcasts self and the bool mask (argument 1) together and returns self's
// elements as a row-major tensor of the broadcast shape, and the mask's values in that order.
func shapeMaskedOperands(self, mask *executor.Tensor) (*executor.Tensor, []bool, error) {
	if mask.ScalarType() != executor.Bool {
		return nil, nil, unbox.ArgError(1, "mask", "must be bool, got %s", executor.DTypeName(mask.ScalarType()))
	}
	sizes, err := broadcastShape(self.Sizes(), mask.Sizes())
	if err != nil {
		return nil, nil, err
	}
	sv, err := shapeBroadcastView(self, sizes)
	if err != nil {
		return nil, nil, err
	}
	mv, err := shapeBroadcastView(mask, sizes)
	if err != nil {
		return nil, nil, err
	}
	x, err := executor.NewTensor(self.ScalarType(), sizes...)
	if err != nil {
		return nil, nil, err
	}
	shapeWrite(x, self, sv)
	m, err := executor.NewTensor(executor.Bool, sizes...)
	if err != nil {
		return nil, nil, err
	}
	shapeWrite(m, mask, mv)
	return x, executor.Data[bool](m), nil
}
