package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::masked_scatter.out", DTypes: shapeAllTypes, Fn: maskedScatterOut})
}

// aten::masked_scatter.out(Tensor self, Tensor mask, Tensor source, *, Tensor(a!) out): self and
// the bool mask broadcast together; where the mask is true, out takes source's elements one
// after another (source read in row-major order, whatever its shape), elsewhere self's. source
// has at least as many elements as the mask has true positions, and self's dtype, as out does.
// out has the broadcast shape.
func maskedScatterOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxMaskedScatterOut(args)
	if err != nil {
		return err
	}
	self, mask, source, out := u.Self, u.Mask, u.Source, u.Out
	if source.ScalarType() != self.ScalarType() {
		return unbox.ArgError(2, "source", "dtype %s, want self's %s", executor.DTypeName(source.ScalarType()), executor.DTypeName(self.ScalarType()))
	}
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	sizes, err := broadcastShape(self.Sizes(), mask.Sizes())
	if err != nil {
		return unbox.ArgError(1, "mask", "shape %v does not broadcast with self's %v", mask.Sizes(), self.Sizes())
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	x, keep, err := shapeMaskedOperands(self, mask)
	if err != nil {
		return err
	}
	var at, from []int
	for i, k := range keep {
		if k {
			at, from = append(at, i), append(from, len(from))
		}
	}
	if len(at) > source.Numel() {
		return unbox.ArgError(2, "source", "has %d elements, fewer than the mask's %d true positions", source.Numel(), len(at))
	}
	shapeGatherElems(x, at, shapeContiguous(source), from)
	shapeWrite(out, x, shapeViewOf(x))
	return nil
}
