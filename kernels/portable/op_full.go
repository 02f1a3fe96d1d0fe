package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::full.out", DTypes: shapeAllTypes, Fn: fullOut})
}

// aten::full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out): out of the given size
// filled with fill_value cast to out's dtype; a value out's dtype cannot hold is refused.
func fullOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxFullOut(args)
	if err != nil {
		return err
	}
	l, s, out := u.Size, u.FillValue, u.Out
	sizes, err := shapeSizes(l, 0, "size")
	if err != nil {
		return err
	}
	v, err := shapeFillValue(s, out.ScalarType(), 1, "fill_value")
	if err != nil {
		return err
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	shapeFill(out, v)
	return nil
}
