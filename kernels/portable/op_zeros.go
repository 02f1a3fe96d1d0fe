package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(
		executor.Kernel{Name: "aten::zeros.out", DTypes: shapeAllTypes, Fn: factoryOut(unboxZerosOut, 0)},
		executor.Kernel{Name: "aten::ones.out", DTypes: shapeAllTypes, Fn: factoryOut(unboxOnesOut, 1)},
	)
}

// factoryOut is aten::zeros.out / aten::ones.out(SymInt[] size, *, Tensor(a!) out): out resized
// to size and filled with k.
func factoryOut(unbox unboxFn[sizeOutArgs], k int64) executor.KernelFunc {
	return func(ctx *executor.KernelContext, args []*executor.EValue) error {
		a, err := unbox(args)
		if err != nil {
			return err
		}
		out := a.Out
		sizes, err := shapeSizes(a.Size, 0, "size")
		if err != nil {
			return err
		}
		v, err := shapeFillValue(scalar{I: k}, out.ScalarType(), 0, "size")
		if err != nil {
			return err
		}
		if err := resize(out, sizes); err != nil {
			return err
		}
		shapeFill(out, v)
		return nil
	}
}
