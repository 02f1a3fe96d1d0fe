package passes

import "github.com/etgo/etgo/ir"

// strides tracks, for the ATen graph before views become copies, the element strides each value
// has: views (permute, transpose, slice, select, unsqueeze, squeeze, expand, view) share their
// input's storage with new strides; every other operator returns a contiguous tensor. reshape
// is a view exactly when these strides allow one, which decides whether a copy is needed.
type strides struct {
	known map[*ir.Value][]int64
}

func contiguous(sizes []int64) []int64 {
	s := make([]int64, len(sizes))
	acc := int64(1)
	for i := len(sizes) - 1; i >= 0; i-- {
		s[i] = acc
		acc *= max(sizes[i], 1)
	}
	return s
}

// norm maps a possibly negative dim into [0, rank).
func norm(d int64, rank int) (int, bool) {
	if d < 0 {
		d += int64(rank)
	}
	return int(d), d >= 0 && d < int64(rank)
}

func (st *strides) of(v *ir.Value) []int64 {
	if s, ok := st.known[v]; ok {
		return s
	}
	s := st.compute(v)
	if len(s) != len(v.Meta.Sizes) {
		// Metadata that disagrees with the operator (a malformed graph): assume a fresh tensor.
		s = contiguous(sizesOf(v.Meta))
	}
	st.known[v] = s
	return s
}

func (st *strides) compute(v *ir.Value) []int64 {
	out := sizesOf(v.Meta)
	n := v.Producer
	if n != nil && iterLayout[n.Target] && v.Meta.IsStatic() && len(n.Outputs) == 1 {
		return st.iterStrides(n, out)
	}
	if n == nil || len(n.Args) == 0 || n.Args[0].Kind != ir.ArgTensor || len(n.Args[0].Values) != 1 {
		return contiguous(out)
	}
	in := n.Args[0].Values[0]
	if in == nil || in.Meta == nil || !in.Meta.IsStatic() || !v.Meta.IsStatic() {
		return contiguous(out)
	}
	inSizes, inStrides := sizesOf(in.Meta), st.of(in)
	r := len(inSizes)
	switch n.Target {
	case "aten.split_with_sizes.default", "aten.split.Tensor", "aten.chunk.default", "aten.unbind.int":
		// Pieces of a split keep the input's strides (unbind drops the split dim).
		if len(out) == r {
			return append([]int64(nil), inStrides...)
		}
	case "aten.permute.default":
		dims := n.IntsArg("dims", nil)
		if len(dims) != r {
			break
		}
		s := make([]int64, r)
		for i, d := range dims {
			k, ok := norm(d, r)
			if !ok {
				return contiguous(out)
			}
			s[i] = inStrides[k]
		}
		return s
	case "aten.transpose.int", "aten.t.default":
		a, b := n.IntArg("dim0", 0), n.IntArg("dim1", 1)
		i, ok1 := norm(a, r)
		j, ok2 := norm(b, r)
		if !ok1 || !ok2 {
			break
		}
		s := append([]int64(nil), inStrides...)
		s[i], s[j] = s[j], s[i]
		return s
	case "aten.slice.Tensor":
		d, ok := norm(n.IntArg("dim", 0), r)
		if !ok || len(out) != r {
			break
		}
		s := append([]int64(nil), inStrides...)
		s[d] *= n.IntArg("step", 1)
		return s
	case "aten.select.int":
		d, ok := norm(n.IntArg("dim", 0), r)
		if !ok {
			break
		}
		return append(append([]int64(nil), inStrides[:d]...), inStrides[d+1:]...)
	case "aten.unsqueeze.default":
		d, ok := norm(n.IntArg("dim", 0), r+1)
		if !ok {
			break
		}
		ins := int64(1)
		if d < r {
			ins = inStrides[d] * max(inSizes[d], 1)
		}
		s := append(append(append([]int64(nil), inStrides[:d]...), ins), inStrides[d:]...)
		return s
	case "aten.squeeze.dim", "aten.squeeze.dims", "aten.squeeze.default":
		var s []int64
		for i := range inSizes {
			if inSizes[i] == 1 && len(out) < r && squeezes(n, i, r) {
				continue
			}
			s = append(s, inStrides[i])
		}
		if len(s) == len(out) {
			return s
		}
	case "aten.expand.default":
		lead := len(out) - r
		if lead < 0 {
			break
		}
		s := make([]int64, len(out))
		for i := range out {
			switch {
			case i < lead:
				s[i] = 0
			case inSizes[i-lead] == 1 && out[i] != 1:
				s[i] = 0
			default:
				s[i] = inStrides[i-lead]
			}
		}
		return s
	case "aten.view.default", "aten.alias.default", "aten.detach.default":
		if s, ok := viewStrides(inSizes, inStrides, out); ok {
			return s
		}
	}
	return contiguous(out)
}

// squeezes reports whether a squeeze node removes dim i.
func squeezes(n *ir.Node, i, r int) bool {
	if n.Target == "aten.squeeze.default" {
		return true
	}
	dims := n.IntsArg("dim", nil)
	if n.Target == "aten.squeeze.dim" {
		dims = []int64{n.IntArg("dim", 0)}
	}
	for _, d := range dims {
		if k, ok := norm(d, r); ok && k == i {
			return true
		}
	}
	return false
}

// viewable reports whether a tensor of these sizes and strides can be viewed with newSizes.
func viewable(sizes, strides, newSizes []int64) bool {
	_, ok := viewStrides(sizes, strides, newSizes)
	return ok
}

// viewStrides is ATen's computeStride: the strides a view with newSizes would have, if one
// exists. Dims are matched in chunks of memory-contiguous dims, from the innermost.
func viewStrides(sizes, strides, newSizes []int64) ([]int64, bool) {
	if len(sizes) == 0 {
		return contiguous(newSizes), true
	}
	numel := int64(1)
	for _, s := range sizes {
		numel *= s
	}
	if numel == 0 {
		return contiguous(newSizes), true
	}
	out := make([]int64, len(newSizes))
	viewD := len(newSizes) - 1
	chunkBase := strides[len(strides)-1]
	tensorNumel, viewNumel := int64(1), int64(1)
	for d := len(sizes) - 1; d >= 0; d-- {
		tensorNumel *= sizes[d]
		if d == 0 || (sizes[d-1] != 1 && strides[d-1] != tensorNumel*chunkBase) {
			for viewD >= 0 && (viewNumel < tensorNumel || newSizes[viewD] == 1) {
				out[viewD] = viewNumel * chunkBase
				viewNumel *= newSizes[viewD]
				viewD--
			}
			if viewNumel != tensorNumel {
				return nil, false
			}
			if d > 0 {
				chunkBase = strides[d-1]
				tensorNumel, viewNumel = 1, 1
			}
		}
	}
	if viewD != -1 {
		return nil, false
	}
	return out, true
}
