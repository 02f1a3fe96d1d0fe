package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::full_like.out", DTypes: shapeAllTypes, Fn: fullLikeOut})
}

// aten::full_like.out(Tensor self, Scalar fill_value, *, MemoryFormat? memory_format=None,
// Tensor(a!) out): out of self's sizes (its own dtype) filled with fill_value.
func fullLikeOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxFullLikeOut(args)
	if err != nil {
		return err
	}
	self, s, out := u.Self, u.FillValue, u.Out
	if err := shapeMemoryFormat(u.MemoryFormat, 2, out); err != nil {
		return err
	}
	return shapeFillLike(self, s, out, 1)
}

// shapeFillLike fills out, resized to self's sizes, with s (argument i).
func shapeFillLike(self *executor.Tensor, s scalar, out *executor.Tensor, i int) error {
	v, err := shapeFillValue(s, out.ScalarType(), i, "fill_value")
	if err != nil {
		return err
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	shapeFill(out, v)
	return nil
}
