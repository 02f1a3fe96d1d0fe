package portable

import (
	"math"
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::topk.values", DTypes: realTypes, Fn: topkValues})
}

// aten::topk.values(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True, *,
// Tensor(a!) values, Tensor(b!) indices): the k largest (or, with largest=False, smallest)
// elements of each lane of self along dim, and their int64 indices along dim. values has self's
// dtype; both outs have self's sizes with dim's size replaced by k, 0 ≤ k ≤ self.size(dim) (a
// 0-d self counts as one element and gives 0-d outs). NaN counts as larger than any number.
// The call's last argument is the TensorList return slot.
//
// The results are always in order (largest first, or smallest first), which sorted=False
// permits; equal elements keep their order along dim. Eager torch and the official kernel
// leave the order of equal elements unspecified, so their indices may differ on ties.
func topkValues(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxTopkValues(args)
	if err != nil {
		return err
	}
	self, k, d, largest, vals, indices := u.Self, u.K, u.Dim, u.Largest, u.Values, u.Indices
	if vals.ScalarType() != self.ScalarType() {
		return unbox.ArgError(5, "values", "values is %s; it must have the input's dtype %s",
			executor.DTypeName(vals.ScalarType()), executor.DTypeName(self.ScalarType()))
	}
	if indices.ScalarType() != executor.Int64 {
		return unbox.ArgError(6, "indices", "indices is %s; it must be int64", executor.DTypeName(indices.ScalarType()))
	}
	dim, err := unbox.NormDim(d, self.Dim(), 2, "dim")
	if err != nil {
		return err
	}
	sizes := slices.Clone(self.Sizes())
	n := 1
	if self.Dim() > 0 {
		n = sizes[dim]
	}
	if k < 0 || k > int64(n) {
		return unbox.ArgError(1, "k", "k = %d is out of range for dimension %d of size %d", k, dim, n)
	}
	if self.Dim() > 0 {
		sizes[dim] = int(k)
	}
	if err := reduceResizeNamed(vals, sizes, "values"); err != nil {
		return err
	}
	if err := reduceResizeNamed(indices, sizes, "indices"); err != nil {
		return err
	}
	if vals.Numel() == 0 {
		return nil
	}
	if self.Dim() == 0 {
		k = 1 // a 0-d self gives its element whatever k (0 or 1), as torch does
	}
	outer, _, inner := reduceSplit(self.Sizes(), dim)
	if isFloat(self.ScalarType()) {
		v, idx := topkLanes(loadF64(self), outer, n, inner, int(k), topkBeforeF(largest))
		storeF64(vals, v)
		storeI64(indices, idx)
	} else {
		v, idx := topkLanes(loadI64(self), outer, n, inner, int(k), topkBeforeI(largest))
		storeI64(vals, v)
		storeI64(indices, idx)
	}
	return nil
}

// topkLanes takes, from each lane of length n of the row-major values v (outer × n × inner),
// the first k elements in the order before defines (stable), and returns them and their
// positions in the lane, row-major over outer × k × inner.
func topkLanes[T int64 | float64](v []T, outer, n, inner, k int, before func(a, b T) bool) ([]T, []int64) {
	vals := make([]T, outer*k*inner)
	idx := make([]int64, len(vals))
	lane := make([]int, n)
	for o := range outer {
		for in := range inner {
			base := o*n*inner + in
			for j := range lane {
				lane[j] = j
			}
			slices.SortStableFunc(lane, func(a, b int) int {
				x, y := v[base+a*inner], v[base+b*inner]
				switch {
				case before(x, y):
					return -1
				case before(y, x):
					return 1
				}
				return 0
			})
			for j := range k {
				at := (o*k+j)*inner + in
				vals[at], idx[at] = v[base+lane[j]*inner], int64(lane[j])
			}
		}
	}
	return vals, idx
}

// topkBeforeF orders floats largest first (or smallest first); NaN is the largest.
func topkBeforeF(largest bool) func(a, b float64) bool {
	less := func(a, b float64) bool { return (!math.IsNaN(a) && math.IsNaN(b)) || a < b }
	if largest {
		return func(a, b float64) bool { return less(b, a) }
	}
	return less
}

func topkBeforeI(largest bool) func(a, b int64) bool {
	if largest {
		return func(a, b int64) bool { return a > b }
	}
	return func(a, b int64) bool { return a < b }
}
