package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::copy.out", DTypes: realBoolTypes, Fn: copyOut},
		executor.Kernel{Name: "aten::copy_", DTypes: realBoolTypes, Fn: copyInPlace},
	)
}

// aten::copy.out(Tensor self, Tensor src, bool non_blocking=False, *, Tensor(a!) out): src,
// broadcast to self's shape and converted to self's dtype (which out must have).
func copyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxCopyOut(args)
	if err != nil {
		return err
	}
	self, src, out := u.Self, u.Src, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	return shapeCopyFrom(out, src, 1)
}

// aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!): writes src,
// broadcast to self's shape and converted to self's dtype, into self. The call's arguments are
// self, src, non_blocking and the return slot.
func copyInPlace(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxCopyInplace(args)
	if err != nil {
		return err
	}
	self, src := u.Self, u.Src
	return shapeCopyFrom(self, src, 1)
}

// shapeCopyFrom writes src (argument i), broadcast to dst's sizes and converted to its dtype,
// into dst.
func shapeCopyFrom(dst, src *executor.Tensor, i int) error {
	if err := shapeConvertible(src, dst); err != nil {
		return err
	}
	shape, err := broadcastShape(src.Sizes(), dst.Sizes())
	if err != nil || !equalShape(shape, dst.Sizes()) {
		return unbox.ArgError(i, "src", "shape %v cannot be broadcast to %v", src.Sizes(), dst.Sizes())
	}
	c := shapeConvert(src, dst.ScalarType())
	v, err := shapeBroadcastView(c, dst.Sizes())
	if err != nil {
		return err
	}
	shapeWrite(dst, c, v)
	return nil
}

// shapeBroadcastView is the view of t broadcast to sizes (t's sizes must broadcast to them).
func shapeBroadcastView(t *executor.Tensor, sizes []int) (shapeView, error) {
	l := make([]int64, len(sizes))
	for k, s := range sizes {
		l[k] = int64(s)
	}
	return shapeExpand(t, l, 1, "src")
}
