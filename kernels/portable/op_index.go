package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::index.Tensor_out", DTypes: shapeAllTypes, Fn: indexTensorOut})
}

// aten::index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out): PyTorch advanced
// indexing, self[indices]. indices is a list of optional tensors, one per leading dimension of
// self (None keeps the whole dimension). Integer index tensors (int64 or int32; negative
// values count from the end) broadcast together to a shape B; a Bool (or uint8) mask indexes
// as many dimensions as it has, standing for the index tensors of its true positions. When the
// indexed dimensions are adjacent, B replaces them in place; otherwise B comes first, followed
// by the remaining dimensions.
func indexTensorOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxIndexTensorOut(args)
	if err != nil {
		return err
	}
	self, list, out := u.Self, u.Indices, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	_, src, err := shapeIndexPlan(self, list, self.Strides(), func(sizes []int) error { return resize(out, sizes) })
	if err != nil {
		return err
	}
	if out.Numel() == 0 {
		return nil
	}
	dst := shapeOffsets(out.Sizes(), out.Strides(), 0)
	shapeGatherElems(out, dst, self, src)
	return nil
}

// shapeIndexPlan resolves PyTorch advanced indexing self[indices] (argument 1): it returns the
// sizes of the result and, for each of its elements in row-major order, Σ coordinate·strides[d]
// over the coordinates of the element of self it selects (with self.Strides(), its element
// offset; with row-major strides, its logical position). Every index is bounds-checked. fit
// accepts or refuses the result's sizes before anything of that size is allocated.
func shapeIndexPlan(self *executor.Tensor, list []*executor.Tensor, strides []int, fit func([]int) error) ([]int, []int, error) {
	ix, err := shapeExpandIndices(self, list)
	if err != nil {
		return nil, nil, err
	}
	sizes := self.Sizes()
	// The indexed dimensions and whether they are adjacent.
	var pos []int
	for d, t := range ix {
		if t != nil {
			pos = append(pos, d)
		}
	}
	if len(pos) == 0 {
		if err := fit(sizes); err != nil {
			return nil, nil, err
		}
		return sizes, shapeOffsets(sizes, strides, 0), nil
	}
	adjacent := pos[len(pos)-1]-pos[0] == len(pos)-1
	var b []int
	for _, d := range pos {
		if b, err = broadcastShape(b, ix[d].sizes); err != nil {
			return nil, nil, unbox.ArgError(1, "indices", "index shapes do not broadcast together: %v", err)
		}
	}
	// The remaining dimensions, split around the indexed block when it stays in place.
	var before, after, bs, as []int
	for d := range sizes {
		switch {
		case ix[d] != nil:
		case adjacent && d < pos[0]:
			before, bs = append(before, sizes[d]), append(bs, strides[d])
		default:
			after, as = append(after, sizes[d]), append(as, strides[d])
		}
	}
	outSizes := append(append(append([]int{}, before...), b...), after...)
	if len(outSizes) > executor.MaxRank {
		return nil, nil, unbox.ArgError(1, "indices", "the result would have %d dimensions", len(outSizes))
	}
	// Every index value is checked (where it stands, not broadcast) before out is sized.
	for _, d := range pos {
		for _, v := range ix[d].vals {
			if _, err := shapeWrapIndex(v, sizes[d], 1, "indices"); err != nil {
				return nil, nil, unbox.ArgError(1, "indices", "index %d is out of bounds for dimension %d with size %d", v, d, sizes[d])
			}
		}
	}
	if err := fit(outSizes); err != nil {
		return nil, nil, err
	}
	if shapeNumel(outSizes) == 0 {
		return outSizes, nil, nil
	}
	// The offset each broadcast position contributes.
	idxOff := make([]int, shapeNumel(b))
	for _, d := range pos {
		m := broadcastIndex(ix[d].sizes, b)
		for e := range idxOff {
			v := at(ix[d].vals, m, e)
			if v < 0 {
				v += int64(sizes[d])
			}
			idxOff[e] += int(v) * strides[d]
		}
	}
	beforeOff := shapeOffsets(before, bs, 0)
	afterOff := shapeOffsets(after, as, 0)
	src := make([]int, 0, shapeNumel(outSizes))
	for _, x := range beforeOff {
		for _, y := range idxOff {
			for _, z := range afterOff {
				src = append(src, x+y+z)
			}
		}
	}
	return outSizes, src, nil
}

// shapeIndex is one integer index tensor of advanced indexing: its sizes and values.
type shapeIndex struct {
	sizes []int
	vals  []int64
}

// shapeExpandIndices turns the optional index list into one entry per dimension of self (nil
// where the dimension is not indexed), expanding boolean masks into the coordinates of their
// true elements.
func shapeExpandIndices(self *executor.Tensor, list []*executor.Tensor) ([]*shapeIndex, error) {
	ix := make([]*shapeIndex, 0, self.Dim())
	for k, t := range list {
		if t == nil {
			ix = append(ix, nil)
			continue
		}
		switch t.ScalarType() {
		case executor.Int64, executor.Int32:
			ix = append(ix, &shapeIndex{sizes: t.Sizes(), vals: loadI64(t)})
		case executor.Bool, executor.Uint8:
			d0 := len(ix)
			if t.Dim() == 0 {
				return nil, unbox.ArgError(1, "indices", "0-d boolean index %d is not supported", k)
			}
			if d0+t.Dim() > self.Dim() {
				return nil, unbox.ArgError(1, "indices", "too many indices for a tensor of dimension %d", self.Dim())
			}
			for j, s := range t.Sizes() {
				if s != self.Size(d0+j) {
					return nil, unbox.ArgError(1, "indices", "the shape of mask %d %v does not match the shape of the indexed tensor %v at dimension %d", k, t.Sizes(), self.Sizes(), d0+j)
				}
			}
			// nonzero: coordinates of the true elements in row-major order.
			coords := make([][]int64, t.Dim())
			idx := make([]int64, t.Dim())
			for _, v := range loadI64(t) {
				if v != 0 {
					for j := range coords {
						coords[j] = append(coords[j], idx[j])
					}
				}
				for j := len(idx) - 1; j >= 0; j-- {
					if idx[j]++; idx[j] < int64(t.Size(j)) {
						break
					}
					idx[j] = 0
				}
			}
			for j := range coords {
				ix = append(ix, &shapeIndex{sizes: []int{len(coords[j])}, vals: coords[j]})
			}
		default:
			return nil, unbox.ArgError(1, "indices", "index %d is %s; indices must be int64, int32, bool or uint8", k, executor.DTypeName(t.ScalarType()))
		}
		if len(ix) > self.Dim() {
			return nil, unbox.ArgError(1, "indices", "too many indices for a tensor of dimension %d", self.Dim())
		}
	}
	if len(ix) > self.Dim() {
		return nil, unbox.ArgError(1, "indices", "too many indices (%d) for a tensor of dimension %d", len(ix), self.Dim())
	}
	for len(ix) < self.Dim() {
		ix = append(ix, nil)
	}
	return ix, nil
}
