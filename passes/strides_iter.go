package passes

import (
	"slices"

	"github.com/etgo/etgo/ir"
)

// iterLayout are the elementwise operators ATen computes with a TensorIterator, whose result
// is laid out as its tensor operands are (a sum of two transposed tensors is transposed), not
// contiguous: it decides whether a later contiguous() or reshape copies.
var iterLayout = map[string]bool{}

func init() {
	for _, t := range []string{
		"aten.add.Tensor", "aten.add.Scalar", "aten.sub.Tensor", "aten.sub.Scalar", "aten.mul.Tensor", "aten.mul.Scalar",
		"aten.div.Tensor", "aten.div.Scalar", "aten.div.Tensor_mode", "aten.div.Scalar_mode", "aten.rsub.Scalar",
		"aten.rsub.Tensor", "aten.remainder.Tensor", "aten.remainder.Scalar", "aten.fmod.Tensor", "aten.fmod.Scalar",
		"aten.maximum.default", "aten.minimum.default", "aten.pow.Tensor_Tensor", "aten.pow.Tensor_Scalar", "aten.pow.Scalar",
		"aten.eq.Tensor", "aten.eq.Scalar", "aten.ne.Tensor", "aten.ne.Scalar", "aten.lt.Tensor", "aten.lt.Scalar",
		"aten.le.Tensor", "aten.le.Scalar", "aten.gt.Tensor", "aten.gt.Scalar", "aten.ge.Tensor", "aten.ge.Scalar",
		"aten.logical_and.default", "aten.logical_or.default", "aten.logical_xor.default", "aten.logical_not.default",
		"aten.where.self", "aten.clamp.default", "aten.clamp_min.default", "aten.clamp_max.default",
		"aten.abs.default", "aten.neg.default", "aten.sigmoid.default", "aten.exp.default", "aten.log.default",
		"aten.sqrt.default", "aten.rsqrt.default", "aten.reciprocal.default", "aten.tanh.default", "aten.erf.default",
	} {
		iterLayout[t] = true
	}
}

// iterStrides is the layout TensorIterator gives the result of n, of sizes out: when every
// operand has the result's sizes, their common layout (contiguous when all are); otherwise the
// dims ordered by the operands' strides (reorder_dimensions: broadcast dims ignored, ties to
// the smaller dim first) and the result dense in that order.
func (st *strides) iterStrides(n *ir.Node, out []int64) []int64 {
	var ops [][]int64 // each operand's strides over the result's dims (0 where broadcast)
	same := true
	allContiguous := true
	var common []int64
	for _, a := range n.Args {
		if a.Kind != ir.ArgTensor || len(a.Values) != 1 || a.Values[0] == nil || a.Values[0].Meta == nil {
			continue
		}
		v := a.Values[0]
		if !v.Meta.IsStatic() {
			return contiguous(out)
		}
		sizes, s := sizesOf(v.Meta), st.of(v)
		if !slices.Equal(sizes, out) {
			same = false
		} else {
			if !isContiguous(sizes, s) {
				allContiguous = false
			}
			if common == nil {
				common = s
			} else if !slices.Equal(common, s) {
				common = []int64{}
			}
		}
		off := len(out) - len(sizes)
		if off < 0 {
			return contiguous(out)
		}
		b := make([]int64, len(out))
		for i := range sizes {
			if sizes[i] != 1 || out[off+i] == 1 {
				b[off+i] = s[i]
			}
		}
		ops = append(ops, b)
	}
	r := len(out)
	if r <= 1 || len(ops) == 0 {
		return contiguous(out)
	}
	if same {
		if allContiguous {
			return contiguous(out)
		}
		if len(common) == r && denseNonOverlapping(out, common) {
			return slices.Clone(common)
		}
	}
	perm := make([]int, r) // fastest dim first
	for i := range perm {
		perm[i] = r - 1 - i
	}
	swap := func(d0, d1 int) int {
		for _, s := range ops {
			s0, s1 := s[d0], s[d1]
			switch {
			case s0 == 0 || s1 == 0:
				continue
			case s0 < s1:
				return -1
			case s0 > s1:
				return 1
			}
			if out[d0] > out[d1] {
				return 1
			}
		}
		return 0
	}
	for i := 1; i < r; i++ {
		d1 := i
		for d0 := i - 1; d0 >= 0; d0-- {
			c := swap(perm[d0], perm[d1])
			if c > 0 {
				perm[d0], perm[d1] = perm[d1], perm[d0]
				d1 = d0
			} else if c < 0 {
				break
			}
		}
	}
	res := make([]int64, r)
	next := int64(1)
	for _, d := range perm {
		res[d] = next
		next *= out[d]
	}
	return res
}

// isContiguous is ATen's is_contiguous: strides of dims of size 1 do not matter.
func isContiguous(sizes, s []int64) bool {
	want := int64(1)
	for i := len(sizes) - 1; i >= 0; i-- {
		if sizes[i] == 0 {
			return true
		}
		if sizes[i] != 1 {
			if s[i] != want {
				return false
			}
			want *= sizes[i]
		}
	}
	return true
}

// denseNonOverlapping reports strides that cover exactly the elements of sizes in some order.
func denseNonOverlapping(sizes, s []int64) bool {
	idx := make([]int, len(sizes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if sizes[a] < 2 || sizes[b] < 2 {
			return cmpInt(int64(min(sizes[b], 2)), int64(min(sizes[a], 2))) // size-1 dims last
		}
		return cmpInt(s[a], s[b])
	})
	want := int64(1)
	for _, d := range idx {
		if sizes[d] == 1 {
			continue
		}
		if s[d] != want {
			return false
		}
		want *= sizes[d]
	}
	return true
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
