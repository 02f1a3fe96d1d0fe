package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::index_put.out", DTypes: shapeAllTypes, Fn: indexPutOut},
		executor.Kernel{Name: "aten::index_put_", DTypes: shapeAllTypes, Fn: indexPutInPlace},
	)
}

// indexPutMaxElems bounds the number of elements an index_put writes (the elements of
// self[indices], which broadcasting index tensors can make far more than any operand holds).
const indexPutMaxElems = 1 << 28

// aten::index_put.out(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False, *,
// Tensor(a!) out): self with self[indices] = values (or += values with accumulate), indices
// indexing as aten::index.Tensor_out does (int64/int32 index tensors that broadcast together,
// negative values counting from the end, bool/uint8 masks, None for a whole dimension; no index
// at all means the whole of self). values has self's dtype and broadcasts to the shape of
// self[indices]. Writes happen in row-major order over self[indices]: when an element is
// indexed twice the last write wins, or every value is added (each addition rounded to, or
// wrapping in, self's dtype; bool adds as logical or). out has self's dtype and sizes.
func indexPutOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxIndexPutOut(args)
	if err != nil {
		return err
	}
	return indexPut(a.Self, a.Indices, a.Values, a.Accumulate, a.Out)
}

// aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) ->
// Tensor(a!): index_put.out writing into self itself. The call's arguments are self, indices,
// values, accumulate and the return slot.
//
// The official kernel registers only a special case: one 1-d int64/int32 index tensor (the
// others None), indices in [0, size), values of self's sizes but along the indexed dimension,
// and no accumulate. It gives the same results as this kernel on what it accepts; this kernel
// also takes everything index_put.out takes, as eager torch does.
func indexPutInPlace(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxIndexPutInplace(args)
	if err != nil {
		return err
	}
	if a.Self.ReadOnly() {
		return unbox.ArgError(0, "self", "is a constant of the program; index_put_ cannot write into it")
	}
	return indexPut(a.Self, a.Indices, a.Values, a.Accumulate, a.Self)
}

// indexPut writes self with self[list] = values (or += with accumulate), arguments 0 to 3, into
// out (which may be self).
func indexPut(self *executor.Tensor, list []*executor.Tensor, values *executor.Tensor, accumulate bool, out *executor.Tensor) error {
	if values.ScalarType() != self.ScalarType() {
		return unbox.ArgError(2, "values", "dtype %s, want self's %s", executor.DTypeName(values.ScalarType()), executor.DTypeName(self.ScalarType()))
	}
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	var xSizes []int
	fit := func(sizes []int) error {
		b, err := broadcastShape(values.Sizes(), sizes)
		if err != nil || !equalShape(b, sizes) {
			return unbox.ArgError(2, "values", "shape %v cannot be broadcast to the indexed shape %v", values.Sizes(), sizes)
		}
		if n := shapeNumel(sizes); n > indexPutMaxElems {
			return unbox.ArgError(1, "indices", "index %d elements, more than the limit of %d", n, indexPutMaxElems)
		}
		xSizes = sizes
		return nil
	}
	// Row-major positions in self of the elements of self[indices].
	_, pos, err := shapeIndexPlan(self, list, shapeContiguousStrides(self.Sizes()), fit)
	if err != nil {
		return err
	}
	if out != self {
		if err := shapeCopySame(self, out); err != nil {
			return err
		}
	}
	if len(pos) == 0 {
		return nil
	}
	m := broadcastIndex(values.Sizes(), xSizes)
	dtype := self.ScalarType()
	switch {
	case !accumulate:
		from := make([]int, len(pos))
		for e := range from {
			from[e] = e
			if m != nil {
				from[e] = m[e]
			}
		}
		shapeGatherElems(out, scatterOffsets(out, pos), values, scatterOffsets(values, from))
	case isFloat(dtype):
		acc, add := loadF64(out), loadF64(values)
		for e, p := range pos {
			acc[p] = roundTo(dtype, acc[p]+at(add, m, e))
		}
		storeF64(out, acc)
	default:
		acc, add := loadI64(out), loadI64(values)
		for e, p := range pos {
			acc[p] = wrapInt(dtype, acc[p]+at(add, m, e))
		}
		storeI64(out, acc)
	}
	return nil
}
